// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the console's e2e compile reads this file too and needs the provider's hand-written types with it
/// <reference path="./oidc-provider.d.ts" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider for tests (oidc-provider), on 127.0.0.1. Its development interaction
 * pages ask for a login (any password) and, with `consent`, for consent; without it the console is
 * a first-party application the person never consents to. The account is the login typed: its
 * `sub` and its `email` are that email. Clients: `console` and `other-app`, each with the secret
 * `<client_id>-secret`, sent back to `{publicUrl}/v1/auth/sso/callback`.
 */
export interface OidcIdp {
  issuer: string;
  close(): Promise<void>;
}

export async function startOidcIdp(options: {
  publicUrl: string;
  consent?: boolean;
}): Promise<OidcIdp> {
  let handle: http.RequestListener = () => {};
  const server = http.createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = (clientId: string) => ({
    client_id: clientId,
    client_secret: `${clientId}-secret`,
    redirect_uris: [`${options.publicUrl}/v1/auth/sso/callback`],
    post_logout_redirect_uris: [`${options.publicUrl}/login`],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  });
  const provider = new Provider(issuer, {
    clients: [client('console'), client('other-app')],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['cookie-key-for-tests'] },
    ...(options.consent
      ? {}
      : {
          // A first-party application: no consent screen.
          loadExistingGrant: async (ctx) => {
            const grant = new ctx.oidc.provider.Grant({
              clientId: ctx.oidc.client!.clientId,
              accountId: ctx.oidc.session!.accountId!,
            });
            grant.addOIDCScope('openid email profile');
            await grant.save();
            return grant;
          },
        }),
  });
  handle = provider.callback();
  return {
    issuer,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
