import { EMAIL_DOMAIN_PATTERN, type SsoConfig, type SsoConfigBody } from '@vrtc/contract';
import type { Caller } from '../auth/caller.ts';
import { changedFields, createdChanges, deletedChanges, recordAudit } from '../audit/audit.ts';
import type { Tx } from '../platform/database/db.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import type { Selectable } from 'kysely';
import type { SsoConfigsTable } from '../platform/database/schema.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { iso } from '../platform/service/serialize.ts';
import { sealSecret } from './secret-box.ts';

/**
 * An organisation's identity provider, set by a platform admin (docs/sso.md). The client secret
 * is sealed (secret-box.ts) and never answered; an email domain belongs to one organisation only,
 * so no provider can vouch for another tenant's people.
 */

type ConfigRow = Selectable<SsoConfigsTable>;

/**
 * Where the provider sends the person back: what its admin registers as the redirect URI. It must
 * be the same on every request, so it comes from PUBLIC_URL, never from a request's Host.
 */
export const callbackUrl = (ctx: ServiceContext) =>
  `${(ctx.config.publicUrl ?? `http://${ctx.config.host}:${ctx.config.port}`).replace(/\/$/, '')}/v1/auth/sso/callback`;

function toSsoConfig(ctx: ServiceContext, row: ConfigRow, domains: string[]): SsoConfig {
  return {
    organization_id: row.organization_id,
    protocol: 'oidc',
    issuer: row.issuer ?? '',
    client_id: row.client_id ?? '',
    client_secret_set: row.client_secret_encrypted !== null,
    email_domains: domains,
    enforced: row.enforced,
    jit: row.jit,
    default_role: row.default_role as SsoConfig['default_role'],
    redirect_uri: callbackUrl(ctx),
    updated_at: iso(row.updated_at),
  };
}

/** What the audit log keeps of a configuration: everything but the secret's value. */
const audited = (row: ConfigRow | undefined, domains: string[]) =>
  row
    ? {
        protocol: row.protocol,
        issuer: row.issuer,
        client_id: row.client_id,
        email_domains: domains,
        enforced: row.enforced,
        jit: row.jit,
        default_role: row.default_role,
      }
    : {};

async function organizationName(db: Tx | ServiceContext['db'], id: string): Promise<string> {
  const organization = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!organization) throw notFound('Organization');
  return organization.name;
}

async function domainsOf(db: Tx | ServiceContext['db'], organizationId: string) {
  const rows = await db
    .selectFrom('sso_email_domains')
    .select('domain')
    .where('organization_id', '=', organizationId)
    .orderBy('domain')
    .execute();
  return rows.map((row) => row.domain);
}

export async function getSsoConfig(ctx: ServiceContext, organizationId: string) {
  const row = await ctx.db
    .selectFrom('sso_configs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw notFound('Single sign-on configuration');
  return toSsoConfig(ctx, row, await domainsOf(ctx.db, organizationId));
}

const domainTaken = (domain: string) =>
  new AppError(
    'email_domain_taken',
    `The email domain ${domain} belongs to another organization's single sign-on`,
    { details: { field: 'body.email_domains', domain } },
  );

const EMAIL_DOMAIN = new RegExp(EMAIL_DOMAIN_PATTERN);

/** An issuer that is an http(s) URL and domains that are host names, or 400 naming the field. */
function checkSettingsText(body: SsoConfigBody) {
  const invalid = (field: string, message: string) =>
    new AppError('validation_error', `${field} ${message}`, { details: { field } });
  let issuer: URL | undefined;
  try {
    issuer = new URL(body.issuer);
  } catch {
    issuer = undefined;
  }
  if (!issuer || !['http:', 'https:'].includes(issuer.protocol)) {
    throw invalid('body.issuer', 'must be an http or https URL');
  }
  const domain = body.email_domains.find((candidate) => !EMAIL_DOMAIN.test(candidate));
  if (domain !== undefined) throw invalid('body.email_domains', 'must be host names');
}

export async function putSsoConfig(
  ctx: ServiceContext,
  caller: Caller,
  organizationId: string,
  body: SsoConfigBody,
): Promise<SsoConfig> {
  checkSettingsText(body);
  if (body.issuer.startsWith('http:') && ctx.config.ssoAllowHttp !== 'true') {
    throw new AppError(
      'validation_error',
      'The issuer must be https (SSO_ALLOW_HTTP allows http)',
      {
        details: { field: 'body.issuer' },
      },
    );
  }
  const domains = [...new Set(body.email_domains.map((domain) => domain.toLowerCase()))].sort();
  const now = ctx.clock.now();
  const sealed = sealSecret(ctx.config.dataDir, body.client_secret);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const name = await organizationName(trx, organizationId);
      const taken = await trx
        .selectFrom('sso_email_domains')
        .select('domain')
        .where('domain', 'in', domains)
        .where('organization_id', '<>', organizationId)
        .executeTakeFirst();
      if (taken) throw domainTaken(taken.domain);
      const before = await trx
        .selectFrom('sso_configs')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .forUpdate()
        .executeTakeFirst();
      const beforeDomains = before ? await domainsOf(trx, organizationId) : [];
      const values = {
        protocol: body.protocol,
        issuer: body.issuer,
        client_id: body.client_id,
        client_secret_encrypted: sealed,
        enforced: body.enforced,
        jit: body.jit,
        default_role: body.default_role,
        updated_at: now,
      };
      const saved = await trx
        .insertInto('sso_configs')
        .values({ organization_id: organizationId, created_at: now, ...values })
        .onConflict((conflict) => conflict.column('organization_id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .deleteFrom('sso_email_domains')
        .where('organization_id', '=', organizationId)
        .execute();
      await trx
        .insertInto('sso_email_domains')
        .values(domains.map((domain) => ({ domain, organization_id: organizationId })))
        .execute();
      // The secret's value never reaches the log; that it was set does (redacted by the log).
      await recordAudit(trx, {
        by: caller,
        at: now,
        action: 'sso.configured',
        organizationId,
        target: { type: 'sso_config', id: organizationId, label: name },
        changes: {
          ...(before
            ? changedFields(audited(before, beforeDomains), audited(saved, domains))
            : createdChanges(audited(saved, domains))),
          client_secret: [before ? true : null, true],
        },
      });
      return saved;
    });
    return toSsoConfig(ctx, row, domains);
  } catch (error) {
    // Two organisations claiming one domain at once: the primary key decides.
    if (isUniqueViolation(error)) throw domainTaken(domains.join(', '));
    throw error;
  }
}

export async function deleteSsoConfig(
  ctx: ServiceContext,
  caller: Caller,
  organizationId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const name = await organizationName(trx, organizationId);
    const domains = await domainsOf(trx, organizationId);
    const before = await trx
      .deleteFrom('sso_configs')
      .where('organization_id', '=', organizationId)
      .returningAll()
      .executeTakeFirst();
    if (!before) throw notFound('Single sign-on configuration');
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'sso.removed',
      organizationId,
      target: { type: 'sso_config', id: organizationId, label: name },
      changes: deletedChanges(audited(before, domains)),
    });
  });
}
