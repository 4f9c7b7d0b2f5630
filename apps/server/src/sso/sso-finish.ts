import crypto from 'node:crypto';
import type { SamlAcsBody, SsoDefaultRole, SsoTestResult } from '@vrtc/contract';
import type { Selectable } from 'kysely';
import { issueToken } from '../auth/auth.service.ts';
import { recordAudit } from '../audit/audit.ts';
import type { SsoSignInsTable } from '../platform/database/schema.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { redeem } from './oidc.ts';
import { validateResponse } from './saml.ts';
import { claimedInResponseTo } from './saml-xml.ts';
import { accountFor, lookUp } from './sso-account.ts';
import { SsoFailure } from './sso-failure.ts';
import {
  SIGN_IN_TTL_MS,
  configOf,
  oidcConfigurationOf,
  samlProviderOf,
  type SsoConfigRow,
} from './sso-sign-in.ts';
import { callbackUrl, samlEndpoints } from './sso.service.ts';

/**
 * The provider's answer (OIDC callback or SAML ACS): the request it answers is taken (once,
 * unexpired), the answer checked, then by the request's purpose: a sign-in (the account found by
 * email in that organisation only, or made with jit), a platform admin's test (what came back is
 * kept for the admin, nobody is signed in) or a re-authentication (the session holds a fresh
 * authentication for FRESH_MS).
 */
export const FRESH_MS = 5 * 60 * 1000;

type Pending = Selectable<SsoSignInsTable>;

export type Finished =
  { kind: 'signed_in'; token: string; returnTo: string } | { kind: 'redirect'; location: string };

interface Identity {
  email: string | null;
  claims: Record<string, unknown>;
  /** When the person last authenticated at the provider, if it says. */
  authTime: Date | null;
}

async function take(ctx: ServiceContext, state: string | null, protocol: 'oidc' | 'saml') {
  const pending = state
    ? await ctx.db
        .deleteFrom('sso_sign_ins')
        .where('state', '=', state)
        .where('protocol', '=', protocol)
        .where('result', 'is', null)
        .where('expires_at', '>', ctx.clock.now())
        .returningAll()
        .executeTakeFirst()
    : undefined;
  if (!pending) throw new SsoFailure('invalid_state', 'Unknown, used or expired sign-in');
  return pending;
}

/** The exact reason: the check's message, and the provider's error code and description. */
function refused(error: unknown): SsoFailure {
  if (error instanceof SsoFailure) return error;
  const detail = error as { message?: unknown; error?: unknown; error_description?: unknown };
  const reason = [detail.message, detail.error, detail.error_description]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(' — ');
  return new SsoFailure('invalid_response', reason || 'The answer failed a check');
}

export async function finishOidc(
  ctx: ServiceContext,
  search: string,
  request: RequestFacts,
): Promise<Finished> {
  const pending = await take(ctx, new URLSearchParams(search).get('state'), 'oidc');
  return settle(ctx, pending, request, async (row) => {
    const configuration = await oidcConfigurationOf(ctx, row);
    const callback = new URL(callbackUrl(ctx));
    callback.search = search;
    const claims = await redeem(configuration, callback, {
      state: pending.state,
      nonce: pending.nonce ?? '',
      codeVerifier: pending.code_verifier ?? '',
    });
    if (claims.email_verified === false) throw new Error('The ID token’s email is not verified');
    return {
      email: typeof claims.email === 'string' ? claims.email : null,
      claims: { ...claims },
      authTime: typeof claims.auth_time === 'number' ? new Date(claims.auth_time * 1000) : null,
    };
  });
}

export async function finishSaml(
  ctx: ServiceContext,
  body: SamlAcsBody,
  request: RequestFacts,
): Promise<Finished> {
  const pending = await take(ctx, claimedInResponseTo(body.SAMLResponse), 'saml');
  return settle(ctx, pending, request, async (row) => {
    const endpoints = samlEndpoints(ctx, row.organization_id);
    const identity = await validateResponse(
      samlProviderOf(row),
      endpoints,
      body.SAMLResponse,
      pending.state,
      ctx.clock.now(),
    );
    // No assertion is taken twice, whatever request it claims to answer.
    const kept = await ctx.db
      .insertInto('saml_assertions_used')
      .values({
        organization_id: row.organization_id,
        assertion_id: identity.assertionId,
        expires_at: identity.usableUntil,
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('assertion_id')
      .executeTakeFirst();
    if (!kept) throw new Error(`The assertion ${identity.assertionId} was used before`);
    return { email: identity.email, claims: identity.claims, authTime: identity.authnInstant };
  });
}

/** Checks the answer, then does what the request was for; a test keeps any failure's reason. */
async function settle(
  ctx: ServiceContext,
  pending: Pending,
  request: RequestFacts,
  check: (row: SsoConfigRow) => Promise<Identity>,
): Promise<Finished> {
  try {
    const row = await configOf(ctx, { organization_id: pending.organization_id });
    if (row.protocol !== pending.protocol) {
      throw new SsoFailure('invalid_state', 'The provider changed since the sign-in began');
    }
    let identity: Identity;
    try {
      identity = await check(row);
    } catch (error) {
      if (!(error instanceof SsoFailure)) {
        ctx.log.warn({ err: error, organizationId: row.organization_id }, 'single sign-on refused');
      }
      throw refused(error);
    }
    if (!identity.email) throw new SsoFailure('invalid_response', 'The answer carries no email');
    const email = identity.email.trim().toLowerCase();
    if (pending.purpose === 'test') return await tested(ctx, pending, row, identity, email);
    if (pending.purpose === 'reauth') return await reauthenticated(ctx, pending, identity, email);
    return await signedIn(ctx, pending, row, email, request);
  } catch (error) {
    if (pending.purpose !== 'test' || !(error instanceof SsoFailure)) throw error;
    return keepTest(ctx, pending, {
      ok: false,
      claims: {},
      outcome: null,
      email: null,
      role: null,
      code: error.code,
      detail: error.message,
    });
  }
}

async function signedIn(
  ctx: ServiceContext,
  pending: Pending,
  row: SsoConfigRow,
  email: string,
  request: RequestFacts,
): Promise<Finished> {
  const account = await accountFor(ctx, row, email, request);
  const { token } = await ctx.db.transaction().execute(async (trx) => {
    const issued = await issueToken({ ...ctx, db: trx }, account.id, { ssoProtocol: row.protocol });
    await recordAudit(trx, {
      by: {
        accountId: account.id,
        email: account.email,
        role: account.role,
        organizationId: row.organization_id,
        request,
      },
      at: ctx.clock.now(),
      action: 'auth.login',
      target: { type: 'account', id: account.id, label: account.email },
      changes: { method: [null, `single sign-on (${row.protocol})`] },
    });
    return issued;
  });
  return { kind: 'signed_in', token, returnTo: pending.return_to };
}

/** A test sign-in: what would happen to this person, and what the provider said. */
async function tested(
  ctx: ServiceContext,
  pending: Pending,
  row: SsoConfigRow,
  identity: Identity,
  email: string,
): Promise<Finished> {
  const found = await lookUp(ctx, row, email);
  const outcome =
    found.outcome === 'existing_account'
      ? { outcome: found.outcome, role: found.account.role }
      : found.outcome === 'none'
        ? row.jit
          ? { outcome: 'would_create' as const, role: row.default_role as SsoDefaultRole }
          : { outcome: 'no_account' as const, role: null }
        : { outcome: found.outcome, role: null };
  return keepTest(ctx, pending, {
    ok: true,
    claims: identity.claims,
    email,
    ...outcome,
    code: null,
    detail: null,
  });
}

async function keepTest(
  ctx: ServiceContext,
  pending: Pending,
  result: Omit<SsoTestResult, 'protocol'>,
): Promise<Finished> {
  const testId = crypto.randomBytes(16).toString('base64url');
  await ctx.db
    .insertInto('sso_sign_ins')
    .values({
      state: testId,
      organization_id: pending.organization_id,
      return_to: pending.return_to,
      expires_at: new Date(ctx.clock.now().getTime() + SIGN_IN_TTL_MS),
      protocol: pending.protocol,
      purpose: 'test',
      result: JSON.stringify({ ...result, protocol: pending.protocol }),
    })
    .execute();
  const location = `/admin/organizations/${pending.organization_id}?sso_test=${testId}`;
  return { kind: 'redirect', location };
}

/** The session that asked holds a fresh authentication, when the same person just signed in. */
async function reauthenticated(
  ctx: ServiceContext,
  pending: Pending,
  identity: Identity,
  email: string,
): Promise<Finished> {
  const now = ctx.clock.now();
  const session = await ctx.db
    .selectFrom('auth_tokens')
    .innerJoin('accounts', 'accounts.id', 'auth_tokens.account_id')
    .select(['auth_tokens.id', 'accounts.email'])
    .where('auth_tokens.id', '=', pending.auth_token_id ?? crypto.randomUUID())
    .where('auth_tokens.expires_at', '>', now)
    .executeTakeFirst();
  if (!session || session.email.toLowerCase() !== email) {
    throw new SsoFailure('reauth_mismatch', 'Another person signed in at the provider');
  }
  if (!identity.authTime || now.getTime() - identity.authTime.getTime() > FRESH_MS) {
    throw new SsoFailure('reauth_mismatch', 'The provider did not authenticate the person anew');
  }
  await ctx.db
    .updateTable('auth_tokens')
    .set({ sso_fresh_until: new Date(now.getTime() + FRESH_MS) })
    .where('id', '=', session.id)
    .execute();
  return { kind: 'redirect', location: pending.return_to };
}
