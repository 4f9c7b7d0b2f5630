import crypto from 'node:crypto';
import { RETURN_TO_PATTERN, type SsoError, type SsoStartQuery } from '@vrtc/contract';
import { issueToken } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { createdChanges, recordAudit } from '../audit/audit.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';
import { authorization, providerConfiguration, redeem } from './oidc.ts';
import { callbackUrl } from './sso.service.ts';

/**
 * Signing in at the organisation's identity provider (docs/sso.md). Every failure is a redirect to
 * the sign-in page with a stable code (SsoFailure), never an error page: the person is in a
 * browser, sent here by the provider.
 */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;

export class SsoFailure extends Error {
  constructor(
    readonly code: SsoError,
    message: string,
  ) {
    super(message);
  }
}

export const failurePath = (code: SsoError) => `/login?sso_error=${code}`;

async function configOf(ctx: ServiceContext, query: SsoStartQuery) {
  const domain = query.email?.split('@').pop()?.toLowerCase();
  let organizationId = query.organization_id;
  if (!organizationId && domain) {
    const owner = await ctx.db
      .selectFrom('sso_email_domains')
      .select('organization_id')
      .where('domain', '=', domain)
      .executeTakeFirst();
    organizationId = owner?.organization_id;
  }
  const config = organizationId
    ? await ctx.db
        .selectFrom('sso_configs')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
    : undefined;
  if (!config?.issuer || !config.client_id || !config.client_secret_encrypted) {
    throw new SsoFailure('not_configured', 'No single sign-on for this email or organization');
  }
  return {
    row: config,
    settings: {
      issuer: config.issuer,
      clientId: config.client_id,
      sealedSecret: config.client_secret_encrypted,
    },
  };
}

async function configurationOf(
  ctx: ServiceContext,
  settings: Parameters<typeof providerConfiguration>[1],
) {
  try {
    return await providerConfiguration(ctx, settings);
  } catch (error) {
    ctx.log.warn({ err: error, issuer: settings.issuer }, 'identity provider unreachable');
    throw new SsoFailure('provider_error', 'The identity provider could not be reached');
  }
}

/** Where to send the browser: the provider's authorization URL, the sign-in remembered. */
/** A console path to come back to (never another site or the API). */
const RETURN_TO = new RegExp(RETURN_TO_PATTERN);

export async function startSignIn(ctx: ServiceContext, query: SsoStartQuery): Promise<string> {
  if (query.return_to !== undefined && !RETURN_TO.test(query.return_to)) {
    throw new AppError('validation_error', 'querystring.return_to must be a path of the console', {
      details: { field: 'querystring.return_to' },
    });
  }
  const { row, settings } = await configOf(ctx, query);
  const configuration = await configurationOf(ctx, settings);
  const started = await authorization(configuration, callbackUrl(ctx));
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sso_sign_ins').where('expires_at', '<=', now).execute();
    await trx
      .insertInto('sso_sign_ins')
      .values({
        state: started.state,
        organization_id: row.organization_id,
        nonce: started.nonce,
        code_verifier: started.codeVerifier,
        return_to: query.return_to ?? '/',
        expires_at: new Date(now.getTime() + SIGN_IN_TTL_MS),
      })
      .execute();
  });
  return started.url.href;
}

export interface SignedIn {
  token: string;
  returnTo: string;
}

/**
 * The provider's answer: the sign-in it belongs to is taken (once, unexpired), the ID token
 * checked, and the account found by email in that organisation only (or made, with jit).
 */
export async function finishSignIn(
  ctx: ServiceContext,
  search: string,
  request: RequestFacts,
): Promise<SignedIn> {
  const state = new URLSearchParams(search).get('state');
  const pending = state
    ? await ctx.db
        .deleteFrom('sso_sign_ins')
        .where('state', '=', state)
        .where('expires_at', '>', ctx.clock.now())
        .returningAll()
        .executeTakeFirst()
    : undefined;
  if (!pending) throw new SsoFailure('invalid_state', 'Unknown, used or expired sign-in');
  const { row, settings } = await configOf(ctx, { organization_id: pending.organization_id });
  const configuration = await configurationOf(ctx, settings);
  const callback = new URL(callbackUrl(ctx));
  callback.search = search;
  let email: string;
  try {
    const claims = await redeem(configuration, callback, {
      state: pending.state,
      nonce: pending.nonce,
      codeVerifier: pending.code_verifier,
    });
    if (typeof claims.email !== 'string' || claims.email_verified === false) {
      throw new Error('The ID token carries no verified email');
    }
    email = claims.email.trim().toLowerCase();
  } catch (error) {
    if (error instanceof SsoFailure) throw error;
    ctx.log.warn({ err: error, issuer: settings.issuer }, 'single sign-on refused');
    throw new SsoFailure('invalid_response', 'The identity provider’s answer failed a check');
  }
  const accountId = await accountFor(ctx, row, email, request);
  const { token } = await ctx.db.transaction().execute(async (trx) => {
    const issued = await issueToken({ ...ctx, db: trx }, accountId.id);
    await recordAudit(trx, {
      by: {
        accountId: accountId.id,
        email: accountId.email,
        role: accountId.role,
        organizationId: row.organization_id,
        request,
      },
      at: ctx.clock.now(),
      action: 'auth.login',
      target: { type: 'account', id: accountId.id, label: accountId.email },
      changes: { method: [null, 'single sign-on'] },
    });
    return issued;
  });
  return { token, returnTo: pending.return_to };
}

interface ConfigRow {
  organization_id: string;
  jit: boolean;
  default_role: string;
}

/** The account of `email` in the organisation, made when jit allows; anyone else is refused. */
async function accountFor(
  ctx: ServiceContext,
  config: ConfigRow,
  email: string,
  request: RequestFacts,
) {
  const domain = email.split('@').pop() ?? '';
  const owned = await ctx.db
    .selectFrom('sso_email_domains')
    .select('organization_id')
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (owned?.organization_id !== config.organization_id) {
    throw new SsoFailure('email_not_allowed', 'The email is not of this organization');
  }
  const account = await ctx.db
    .selectFrom('accounts')
    .innerJoin('organizations', 'organizations.id', 'accounts.organization_id')
    .select([
      'accounts.id',
      'accounts.email',
      'accounts.role',
      'accounts.active',
      'accounts.organization_id',
      'organizations.active as organization_active',
    ])
    .where((eb) => eb(eb.fn('lower', ['accounts.email']), '=', email))
    .executeTakeFirst();
  if (account) {
    // No identity provider signs anyone into another tenant, nor a platform admin anywhere.
    if (account.organization_id !== config.organization_id || account.role === 'admin') {
      throw new SsoFailure('email_not_allowed', 'The email belongs to another organization');
    }
    if (!account.active || !account.organization_active) {
      throw new SsoFailure('account_inactive', 'The account or organization is deactivated');
    }
    return account;
  }
  if (!config.jit) throw new SsoFailure('no_account', 'No account for this email here');
  return createAccount(ctx, config, email, request);
}

async function createAccount(
  ctx: ServiceContext,
  config: ConfigRow,
  email: string,
  request: RequestFacts,
) {
  // A password no one knows: the account signs in at its provider.
  const passwordHash = await hashPassword(
    crypto.randomBytes(32).toString('base64url'),
    ctx.config.passwordHashCost,
  );
  const role = config.default_role as 'client';
  return ctx.db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('accounts')
      .values({ email, password_hash: passwordHash, role, organization_id: config.organization_id })
      .returning(['id', 'email', 'role', 'organization_id'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: {
        actor: { type: 'system', id: null, email: null, role: null },
        organizationId: config.organization_id,
        request,
      },
      at: ctx.clock.now(),
      action: 'account.created',
      target: { type: 'account', id: created.id, label: email },
      changes: createdChanges({ email, role, created_by: 'single sign-on' }),
    });
    return created;
  });
}
