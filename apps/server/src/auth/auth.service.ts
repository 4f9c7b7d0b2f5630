import {
  providerSignOutPath,
  type LoginAnswer,
  type LoginBody,
  type LoginResponse,
  type LogoutAnswer,
  type Me,
  type OwnPasswordBody,
} from '@vrtc/contract';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { AppError } from '../platform/service/errors.ts';
import { ssoRequired } from './sso-required.ts';
import {
  accountKey,
  countPasswordAttempt,
  forgivePasswordAttempt,
  loginLimits,
  type SignInSource,
} from './sign-in-limits.ts';
import { secondStepOf } from './mfa-challenge.ts';

export {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT,
  LOGIN_SLOW_AFTER_ACCOUNT_FAILURES,
  LOGIN_WINDOW_MS,
  type SignInSource,
} from './sign-in-limits.ts';
import { auditBudgetLeft } from '../audit/refusals.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { refuseCommonPassword } from './common-passwords.ts';
import { LAST_USED_GRAIN_MS, noteApiTokenUse } from './api-tokens.ts';
import { hashToken, newToken } from './tokens.ts';
import { recordAudit, recordAuditAlone, type AccountActor } from '../audit/audit.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';

const findSignInAccount = (db: Db, email: string) =>
  db
    .selectFrom('accounts')
    .innerJoin('organizations', 'organizations.id', 'accounts.organization_id')
    .select([
      'accounts.id',
      'accounts.email',
      'accounts.password_hash',
      'accounts.role',
      'accounts.active',
      'accounts.organization_id',
      'organizations.name as organization_name',
      'organizations.active as organization_active',
    ])
    .where((eb) => eb(eb.fn('lower', ['accounts.email']), '=', accountKey(email)))
    .executeTakeFirst();

type FoundAccount = NonNullable<Awaited<ReturnType<typeof findSignInAccount>>>;

/**
 * A refused sign-in to an account that exists is recorded in a transaction of its own (there is
 * no change to ride with), within the account's budget of refusals (audit/refusals.ts): the
 * account and the email tried, never the password. One to no account is only counted (metrics):
 * a stranger's made-up emails write nothing.
 */
async function recordLoginRefused(
  ctx: ServiceContext,
  now: Date,
  account: FoundAccount | undefined,
  request: RequestFacts,
  error: AppError,
  outcome: 'failure' | 'denied',
): Promise<AppError> {
  if (!account || !(await auditBudgetLeft(ctx, now, 'auth.login_failed', account.id))) return error;
  await recordAuditAlone(ctx.db, {
    by: accountActor(account, request),
    at: now,
    action: 'auth.login_failed',
    outcome,
    target: { type: 'account', id: account.id, label: account.email },
    changes: { reason: [null, error.message] },
  });
  return error;
}

/** Why a right password still does not sign in, if it does not. Only its holder learns this. */
function switchedOff(account: FoundAccount): AppError | undefined {
  if (!account.active) return new AppError('forbidden', 'This account is deactivated');
  if (!account.organization_active)
    return new AppError('forbidden', 'This organization is deactivated');
  return undefined;
}

/**
 * The password step of a sign-in. A right password of an account with a second factor answers
 * its challenge (mfa-challenge.ts: no token yet, the second step at POST /v1/auth/mfa/verify); of
 * an account that must have a factor and has none, a sign-in for its enrolment only.
 */
export async function login(
  ctx: ServiceContext,
  body: LoginBody,
  source: SignInSource,
): Promise<LoginAnswer & { token?: string }> {
  const now = ctx.clock.now();
  const limits = loginLimits(body.email, source.request.ip ?? '', source.knownDevice);
  const slow = (await countPasswordAttempt(ctx, now, limits)) && !source.knownDevice;
  if (slow) await new Promise((resolve) => setTimeout(resolve, ctx.config.loginSlowDelayMs));

  const account = await findSignInAccount(ctx.db, body.email);
  const matches = await verifyPassword(
    account?.password_hash,
    body.password,
    ctx.config.passwordHashCost,
  );
  if (!account || !matches) {
    const error = new AppError('invalid_credentials', 'Invalid email or password');
    throw await recordLoginRefused(ctx, now, account, source.request, error, 'failure');
  }
  const refusal = switchedOff(account);
  if (refusal) throw await recordLoginRefused(ctx, now, account, source.request, refusal, 'denied');
  if (await ssoRequired(ctx.db, account)) {
    const error = new AppError('sso_required', 'Sign in with single sign-on');
    throw await recordLoginRefused(ctx, now, account, source.request, error, 'denied');
  }
  await forgivePasswordAttempt(ctx, now, limits);
  const step = await secondStepOf(ctx, account, now);
  if (step.challenge) return step.challenge;
  return finishSignIn(ctx, account, source.request, { enrolmentOnly: step.enrolmentOnly });
}

/** An account as a finished sign-in needs it. */
export type SignInAccount = Pick<
  NonNullable<Awaited<ReturnType<typeof findSignInAccount>>>,
  'id' | 'email' | 'role' | 'organization_id' | 'organization_name'
>;

/** An account signing in, as its audit events name it: itself, in its organisation, from there. */
export function accountActor(
  account: Pick<FoundAccount, 'id' | 'email' | 'role' | 'organization_id'>,
  request?: RequestFacts,
): AccountActor {
  return {
    accountId: account.id,
    email: account.email,
    role: account.role,
    organizationId: account.organization_id,
    request,
  };
}

/**
 * Issues the sign-in's token and records it (auth.login, with the second factor used if any) in
 * one transaction: the end of a password sign-in, or of its second step.
 */
export async function finishSignIn(
  ctx: ServiceContext,
  account: SignInAccount,
  request: RequestFacts,
  options: { enrolmentOnly?: boolean; factor?: string } = {},
): Promise<LoginResponse & { token: string }> {
  const now = ctx.clock.now();
  const { token, expiresAt } = await ctx.db.transaction().execute(async (trx) => {
    const issued = await issueToken({ ...ctx, db: trx }, account.id, {
      enrolmentOnly: options.enrolmentOnly,
    });
    await recordAudit(trx, {
      by: accountActor(account, request),
      at: now,
      action: 'auth.login',
      target: { type: 'account', id: account.id, label: account.email },
      ...(options.factor ? { changes: { second_factor: [null, options.factor] } } : {}),
      ...(options.enrolmentOnly
        ? { changes: { second_factor: [null, 'enrolment_required'] } }
        : {}),
    });
    return issued;
  });
  return {
    token,
    expires_at: expiresAt.toISOString(),
    id: account.id,
    email: account.email,
    role: account.role,
    organization_id: account.organization_id,
    organization_name: account.organization_name,
    ...(options.enrolmentOnly ? { mfa_enrolment_required: true } : {}),
  };
}

export async function issueToken(
  ctx: { db: Db | Tx } & Pick<ServiceContext, 'clock' | 'config'>,
  accountId: string,
  how: { ssoProtocol?: 'oidc' | 'saml'; enrolmentOnly?: boolean } = {},
) {
  const now = ctx.clock.now();
  const { token, hash } = newToken();
  const expiresAt = new Date(now.getTime() + ctx.config.tokenTtlMs);
  await ctx.db
    .insertInto('auth_tokens')
    .values({
      account_id: accountId,
      token_hash: hash,
      created_at: now,
      expires_at: expiresAt,
      sso_protocol: how.ssoProtocol ?? null,
      mfa_enrolment_only: how.enrolmentOnly ?? false,
    })
    .execute();
  return { token, expiresAt };
}

/** Sign-ins that still authenticate: unexpired, of an active account in an active organisation. */
const validSignIns = (db: Db | Tx, now: Date) =>
  db
    .selectFrom('auth_tokens')
    .innerJoin('accounts', 'accounts.id', 'auth_tokens.account_id')
    .innerJoin('organizations', 'organizations.id', 'accounts.organization_id')
    .select([
      'auth_tokens.id as token_id',
      'auth_tokens.expires_at',
      'auth_tokens.mfa_enrolment_only',
      'accounts.id as account_id',
      'accounts.email',
      'accounts.role',
      'accounts.organization_id',
      'organizations.name as organization_name',
    ])
    .where('auth_tokens.expires_at', '>', now)
    .where('accounts.active', '=', true)
    .where('organizations.active', '=', true);

type SignInRow = Awaited<ReturnType<ReturnType<typeof validSignIns>['executeTakeFirstOrThrow']>>;

const callerOfRow = (row: SignInRow): Caller => ({
  accountId: row.account_id,
  tokenId: row.token_id,
  email: row.email,
  role: row.role,
  organizationId: row.organization_id,
  organizationName: row.organization_name,
  ...(row.mfa_enrolment_only ? { mfaEnrolmentOnly: true } : {}),
});

/**
 * The caller behind a bearer token, or undefined. One query: the token must be unexpired and both
 * its account and the account's organisation active, so switching either off takes effect at once.
 */
export async function resolveToken(db: Db, now: Date, token: string): Promise<Caller | undefined> {
  const row = await validSignIns(db, now)
    .select(['auth_tokens.name', 'auth_tokens.last_used_at'])
    .where('auth_tokens.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return undefined;
  // An API token notes when it was used, to the minute (api-tokens.ts).
  if (
    row.name !== null &&
    !(row.last_used_at && now.getTime() - row.last_used_at.getTime() < LAST_USED_GRAIN_MS)
  ) {
    await noteApiTokenUse(db, row.token_id, now);
  }
  return callerOfRow(row);
}

/**
 * Which of these sign-ins (token ids) still authenticate, and as whom, until when: what a plain
 * request with each token would get now. One query for all (the live streams re-check theirs
 * when an access change is heard).
 */
export async function stillSignedIn(
  db: Db,
  now: Date,
  tokenIds: readonly string[],
): Promise<Map<string, { caller: Caller; expiresAt: Date }>> {
  const found = new Map<string, { caller: Caller; expiresAt: Date }>();
  if (tokenIds.length === 0) return found;
  const rows = await validSignIns(db, now)
    .where('auth_tokens.id', 'in', [...tokenIds])
    .execute();
  for (const row of rows)
    found.set(row.token_id, { caller: callerOfRow(row), expiresAt: row.expires_at });
  return found;
}

export function me(caller: Caller): Me {
  return {
    id: caller.accountId,
    email: caller.email,
    role: caller.role,
    organization_id: caller.organizationId,
    organization_name: caller.organizationName,
    ...(caller.mfaEnrolmentOnly ? { mfa_enrolment_required: true } : {}),
  };
}

/** Ends the session; one made by OIDC single sign-on is offered its provider's sign-out too. */
export async function logout(ctx: ServiceContext, caller: Caller): Promise<LogoutAnswer> {
  return ctx.db.transaction().execute(async (trx) => {
    const ended = await trx
      .deleteFrom('auth_tokens')
      .where('id', '=', caller.tokenId)
      .returning('sso_protocol')
      .executeTakeFirst();
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'auth.logout',
      target: { type: 'account', id: caller.accountId, label: caller.email },
    });
    return ended?.sso_protocol === 'oidc'
      ? { ok: true, provider_logout_url: providerSignOutPath(caller.organizationId) }
      : { ok: true };
  });
}

/**
 * The caller changes its own password. The current password is checked as a sign-in's is, under
 * the same limits and keys (the account's email, the client's address): guessing through this
 * route is limited exactly like guessing at the sign-in, and the two share one count. On success
 * every other sign-in of the account ends in the transaction of the change (their live streams
 * close); the caller's stays.
 */
export async function changeOwnPassword(
  ctx: ServiceContext,
  caller: Caller,
  body: OwnPasswordBody,
  clientAddress: string,
): Promise<void> {
  refuseCommonPassword(body.new_password);
  const now = ctx.clock.now();
  const limits = loginLimits(caller.email, clientAddress);
  await countPasswordAttempt(ctx, now, limits);
  const account = await ctx.db
    .selectFrom('accounts')
    .select('password_hash')
    .where('id', '=', caller.accountId)
    .executeTakeFirst();
  const target = { type: 'account' as const, id: caller.accountId, label: caller.email };
  if (
    !(await verifyPassword(
      account?.password_hash,
      body.current_password,
      ctx.config.passwordHashCost,
    ))
  ) {
    // A failed change is recorded on its own (no change rides with it), never the password tried.
    await recordAuditAlone(ctx.db, {
      by: caller,
      at: now,
      action: 'auth.password_changed',
      outcome: 'failure',
      target,
      changes: { reason: [null, 'The current password is wrong'] },
    });
    throw new AppError('wrong_current_password', 'The current password is wrong');
  }
  await forgivePasswordAttempt(ctx, now, limits);

  const passwordHash = await hashPassword(body.new_password, ctx.config.passwordHashCost);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set({ password_hash: passwordHash })
      .where('id', '=', caller.accountId)
      .execute();
    await endSignIns(trx, caller.accountId, { except: caller.tokenId });
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'auth.password_changed',
      target,
      changes: { password: [account?.password_hash ?? null, passwordHash] },
    });
  });
}

/**
 * Ends the account's sign-ins: all of them, or all but `except` (a token id: the caller's own,
 * when an account changes its own password). Pass the transaction of the change that calls for
 * it. Open live streams of the ended tokens close on every server process (the access-change
 * trigger, access-changes.ts); the kept token's streams stay open.
 */
export async function endSignIns(
  executor: Db | Tx,
  accountId: string,
  options: { except?: string } = {},
): Promise<void> {
  let query = executor.deleteFrom('auth_tokens').where('account_id', '=', accountId);
  if (options.except) query = query.where('id', '!=', options.except);
  await query.execute();
}

/** Ends every sign-in of the organisation's accounts (it was deactivated). */
export async function endOrganizationSignIns(executor: Db | Tx, organizationId: string) {
  await executor
    .deleteFrom('auth_tokens')
    .where('account_id', 'in', (eb) =>
      eb.selectFrom('accounts').select('id').where('organization_id', '=', organizationId),
    )
    .execute();
}

/**
 * A signed-in account proves again that it is itself (the password of a signature, 21 CFR
 * 11.200): checked as a sign-in's password is, under the same limits and keys, so a guess made
 * through a signature counts with the sign-in's failures. True when the password is the
 * account's; nothing else is changed.
 */
export async function confirmOwnPassword(
  ctx: ServiceContext,
  caller: Caller,
  password: string,
  clientAddress: string,
): Promise<boolean> {
  const now = ctx.clock.now();
  const limits = loginLimits(caller.email, clientAddress);
  await countPasswordAttempt(ctx, now, limits);
  const account = await ctx.db
    .selectFrom('accounts')
    .select('password_hash')
    .where('id', '=', caller.accountId)
    .executeTakeFirst();
  const matches = await verifyPassword(
    account?.password_hash,
    password,
    ctx.config.passwordHashCost,
  );
  if (matches) await forgivePasswordAttempt(ctx, now, limits);
  return matches;
}
