import crypto from 'node:crypto';
import { hashPassword } from '../auth/passwords.ts';
import { createdChanges, recordAudit } from '../audit/audit.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { SsoFailure } from './sso-failure.ts';

/**
 * Who an identity provider's answer signs in: the account of its email in the provider's
 * organisation only (docs/sso.md), made at first sign-in when the configuration's jit allows.
 */
export interface ConfigRow {
  organization_id: string;
  jit: boolean;
  default_role: string;
}

type Found = Awaited<ReturnType<typeof findAccount>>;

/**
 * What the email finds in the organisation: its account, none, or why it is refused (an email
 * outside the organisation's domains, of another organisation, of a platform admin, deactivated).
 * A test sign-in reports it as is; a sign-in refuses with the failure of the same name.
 */
export type Lookup =
  | { outcome: 'existing_account'; account: NonNullable<Found> }
  | {
      outcome:
        | 'none'
        | 'domain_not_allowed'
        | 'other_organization'
        | 'platform_admin'
        | 'account_inactive';
    };

async function findAccount(ctx: ServiceContext, email: string) {
  return ctx.db
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
}

export async function lookUp(
  ctx: ServiceContext,
  config: ConfigRow,
  email: string,
): Promise<Lookup> {
  const domain = email.split('@').pop() ?? '';
  const owned = await ctx.db
    .selectFrom('sso_email_domains')
    .select('organization_id')
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (owned?.organization_id !== config.organization_id) return { outcome: 'domain_not_allowed' };
  const account = await findAccount(ctx, email);
  if (!account) return { outcome: 'none' };
  // No identity provider signs anyone into another tenant, nor a platform admin anywhere.
  if (account.organization_id !== config.organization_id) return { outcome: 'other_organization' };
  if (account.role === 'admin') return { outcome: 'platform_admin' };
  if (!account.active || !account.organization_active) return { outcome: 'account_inactive' };
  return { outcome: 'existing_account', account };
}

const REFUSALS = {
  domain_not_allowed: ['email_not_allowed', 'The email is not of this organization'],
  other_organization: ['email_not_allowed', 'The email belongs to another organization'],
  platform_admin: ['email_not_allowed', 'The email belongs to another organization'],
  account_inactive: ['account_inactive', 'The account or organization is deactivated'],
} as const;

/**
 * The account of `email` in the organisation, or undefined when it has none; an email of another
 * organisation, of a platform admin or of a deactivated account is refused.
 */
export async function existingAccount(ctx: ServiceContext, config: ConfigRow, email: string) {
  const found = await lookUp(ctx, config, email);
  if (found.outcome === 'existing_account') return found.account;
  if (found.outcome === 'none') return undefined;
  const [code, message] = REFUSALS[found.outcome];
  throw new SsoFailure(code, message);
}

/** The account of `email` in the organisation, made when jit allows; anyone else is refused. */
export async function accountFor(
  ctx: ServiceContext,
  config: ConfigRow,
  email: string,
  request: RequestFacts,
) {
  const account = await existingAccount(ctx, config, email);
  if (account) return account;
  if (!config.jit) throw new SsoFailure('no_account', `No account for ${email} here`);
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
