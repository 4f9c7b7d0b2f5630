import { RETURN_TO_PATTERN, type SsoStartQuery } from '@vrtc/contract';
import type { Selectable } from 'kysely';
import type { SsoConfigsTable } from '../platform/database/schema.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';
import { authorization, providerConfiguration } from './oidc.ts';
import { authnRequest, type SamlProvider } from './saml.ts';
import { SsoFailure } from './sso-failure.ts';
import { callbackUrl, samlEndpoints } from './sso.service.ts';

export { SsoFailure, failurePath } from './sso-failure.ts';

/**
 * Sending the browser to the organisation's identity provider (docs/sso.md): OIDC's authorization
 * code flow or a SAML AuthnRequest, the request remembered for ten minutes and used once
 * (sso_sign_ins: OIDC's state, SAML's request ID). sso-finish.ts takes the answer.
 */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;

export type SsoConfigRow = Selectable<SsoConfigsTable>;
export type SignInPurpose = 'sign_in' | 'test' | 'reauth';

async function organizationOf(ctx: ServiceContext, query: SsoStartQuery) {
  if (query.organization_id) return query.organization_id;
  const domain = query.email?.split('@').pop()?.toLowerCase();
  if (!domain) return undefined;
  const owner = await ctx.db
    .selectFrom('sso_email_domains')
    .select('organization_id')
    .where('domain', '=', domain)
    .executeTakeFirst();
  return owner?.organization_id;
}

/** The organisation's configuration, complete for its protocol, or not_configured. */
export async function configOf(ctx: ServiceContext, query: SsoStartQuery): Promise<SsoConfigRow> {
  const organizationId = await organizationOf(ctx, query);
  const config = organizationId
    ? await ctx.db
        .selectFrom('sso_configs')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
    : undefined;
  const complete =
    config?.protocol === 'saml'
      ? Boolean(config.entry_point && config.idp_certificate)
      : Boolean(config?.issuer && config.client_id && config.client_secret_encrypted);
  if (!config || !complete) {
    throw new SsoFailure('not_configured', 'No single sign-on for this email or organization');
  }
  return config;
}

/** The OIDC provider's configuration (discovery), or provider_error when it cannot be read. */
export async function oidcConfigurationOf(ctx: ServiceContext, row: SsoConfigRow) {
  const settings = {
    issuer: row.issuer ?? '',
    clientId: row.client_id ?? '',
    sealedSecret: row.client_secret_encrypted ?? '',
  };
  try {
    return await providerConfiguration(ctx, settings);
  } catch (error) {
    ctx.log.warn({ err: error, issuer: settings.issuer }, 'identity provider unreachable');
    throw new SsoFailure(
      'provider_error',
      `The identity provider could not be reached: ${(error as Error).message}`,
    );
  }
}

/** The SAML provider's settings as stored (PEM certificates one after another). */
export function samlProviderOf(row: SsoConfigRow): SamlProvider {
  return {
    entityId: row.idp_entity_id,
    entryPoint: row.entry_point ?? '',
    certificates: (row.idp_certificate ?? '')
      .split(/(?<=-----END CERTIFICATE-----\n?)/)
      .filter((pem) => pem.includes('BEGIN CERTIFICATE')),
  };
}

/** A console path to come back to (never another site or the API). */
const RETURN_TO = new RegExp(RETURN_TO_PATTERN);

export function checkReturnTo(returnTo: string | undefined) {
  if (returnTo !== undefined && !RETURN_TO.test(returnTo)) {
    throw new AppError('validation_error', 'querystring.return_to must be a path of the console', {
      details: { field: 'querystring.return_to' },
    });
  }
}

export interface StartOptions {
  purpose: SignInPurpose;
  /** reauth: the console session that asks. */
  authTokenId?: string;
}

/** The provider's URL to send the browser to, the request remembered. */
async function providerRequest(ctx: ServiceContext, row: SsoConfigRow, fresh: boolean) {
  if (row.protocol === 'saml') {
    const endpoints = samlEndpoints(ctx, row.organization_id);
    const started = await authnRequest(samlProviderOf(row), endpoints, fresh);
    return { url: started.url, state: started.requestId, nonce: null, codeVerifier: null };
  }
  const configuration = await oidcConfigurationOf(ctx, row);
  const started = await authorization(configuration, callbackUrl(ctx), fresh);
  return { ...started, url: started.url.href };
}

/** Where to send the browser: the provider's sign-in, the request remembered. */
export async function startSignIn(
  ctx: ServiceContext,
  query: SsoStartQuery,
  options: StartOptions = { purpose: 'sign_in' },
): Promise<string> {
  checkReturnTo(query.return_to);
  const row = await configOf(ctx, query);
  const started = await providerRequest(ctx, row, options.purpose !== 'sign_in');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sso_sign_ins').where('expires_at', '<=', now).execute();
    await trx.deleteFrom('saml_assertions_used').where('expires_at', '<=', now).execute();
    await trx
      .insertInto('sso_sign_ins')
      .values({
        state: started.state,
        organization_id: row.organization_id,
        nonce: started.nonce,
        code_verifier: started.codeVerifier,
        return_to: query.return_to ?? '/',
        expires_at: new Date(now.getTime() + SIGN_IN_TTL_MS),
        protocol: row.protocol,
        purpose: options.purpose,
        auth_token_id: options.authTokenId ?? null,
      })
      .execute();
  });
  return started.url;
}
