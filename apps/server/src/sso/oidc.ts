import * as client from 'openid-client';
import type { ServiceContext } from '../platform/service/context.ts';
import { openSecret } from './secret-box.ts';

/** The server's requests to an identity provider give up after this long: a sign-in never hangs. */
export const PROVIDER_TIMEOUT_SECONDS = 5;

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  sealedSecret: string;
}

/**
 * The provider's configuration, read from its discovery document. openid-client checks the ID
 * token against it (issuer, audience, expiry, nonce, signature by the provider's JWKS).
 */
export async function providerConfiguration(
  ctx: ServiceContext,
  settings: ProviderSettings,
): Promise<client.Configuration> {
  const allowHttp = ctx.config.ssoAllowHttp === 'true';
  const configuration = await client.discovery(
    new URL(settings.issuer),
    settings.clientId,
    openSecret(ctx.config.dataDir, settings.sealedSecret),
    undefined,
    {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      execute: allowHttp ? [client.allowInsecureRequests] : [],
    },
  );
  configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
  return configuration;
}

export interface Authorization {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The provider's authorization URL: code flow, PKCE S256, a fresh state and nonce; `fresh` asks
 * the provider to authenticate the person again (prompt=login, max_age=0).
 */
export async function authorization(
  configuration: client.Configuration,
  redirectUri: string,
  fresh = false,
): Promise<Authorization> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    // A re-authentication (or a test): the provider asks for the person's credentials again.
    ...(fresh ? { prompt: 'login', max_age: '0' } : {}),
  });
  return { url, state, nonce, codeVerifier };
}

/** The ID token's claims once every check passed; throws on any failure. */
export async function redeem(
  configuration: client.Configuration,
  callback: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
) {
  const tokens = await client.authorizationCodeGrant(configuration, callback, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('The provider sent no ID token');
  if (typeof claims.email === 'string') return claims;
  // Some providers keep the email for the userinfo endpoint; its answer must name the same sub.
  const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
  return { ...claims, email: userInfo.email, email_verified: userInfo.email_verified };
}
