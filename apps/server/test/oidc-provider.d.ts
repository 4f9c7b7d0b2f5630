/**
 * The part of oidc-provider 8 (a test dependency: the identity provider single sign-on is tested
 * against) the tests use; the package ships no types.
 */
declare module 'oidc-provider' {
  import type { RequestListener } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface KoaContext {
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }
  interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients?: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    findAccount?: (ctx: KoaContext, sub: string) => Account | Promise<Account | undefined>;
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys: string[] };
    conformIdTokenClaims?: boolean;
    loadExistingGrant?: (ctx: KoaContext) => Promise<Grant | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: new (properties: { clientId: string; accountId: string }) => Grant;
    callback(): RequestListener;
  }
}
