import {
  EMAIL_DOMAIN_PATTERN,
  type OidcConfigBody,
  type SamlConfigBody,
  type SsoConfig,
  type SsoConfigBody,
} from '@vrtc/contract';
import type { Caller } from '../platform/http/caller.ts';
import { changedFields, createdChanges, deletedChanges, recordAudit } from '../audit/audit.ts';
import type { Tx } from '../platform/database/db.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import type { Selectable } from 'kysely';
import type { SsoConfigsTable } from '../platform/database/schema.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { iso } from '../platform/service/serialize.ts';
import { sealSecret } from './secret-box.ts';
import { SamlSettingsError, certificatesOf, readIdpMetadata } from './saml-xml.ts';

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
export const baseUrl = (ctx: ServiceContext) =>
  (ctx.config.publicUrl ?? `http://${ctx.config.host}:${ctx.config.port}`).replace(/\/$/, '');
export const callbackUrl = (ctx: ServiceContext) => `${baseUrl(ctx)}/v1/auth/sso/callback`;

/** SAML: the console's ACS (one for every organisation) and its entity ID for one organisation. */
export const samlEndpoints = (ctx: ServiceContext, organizationId: string) => ({
  acsUrl: `${baseUrl(ctx)}/v1/auth/sso/saml/acs`,
  spEntityId: `${baseUrl(ctx)}/v1/auth/sso/saml/${organizationId}/metadata`,
});

function toSsoConfig(ctx: ServiceContext, row: ConfigRow, domains: string[]): SsoConfig {
  const saml = samlEndpoints(ctx, row.organization_id);
  return {
    organization_id: row.organization_id,
    protocol: row.protocol,
    issuer: row.issuer ?? '',
    client_id: row.client_id ?? '',
    client_secret_set: row.client_secret_encrypted !== null,
    email_domains: domains,
    enforced: row.enforced,
    jit: row.jit,
    default_role: row.default_role as SsoConfig['default_role'],
    redirect_uri: callbackUrl(ctx),
    idp_entity_id: row.idp_entity_id ?? '',
    entry_point: row.entry_point ?? '',
    idp_certificate: row.idp_certificate ?? '',
    acs_url: saml.acsUrl,
    sp_entity_id: saml.spEntityId,
    sp_metadata_url: saml.spEntityId,
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
        idp_entity_id: row.idp_entity_id,
        entry_point: row.entry_point,
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

const invalid = (field: string, message: string) =>
  new AppError('validation_error', `${field} ${message}`, { details: { field } });

/** An http(s) URL (https unless SSO_ALLOW_HTTP), or 400 naming the field. */
function checkUrl(ctx: ServiceContext, field: string, text: string) {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw invalid(field, 'must be an http or https URL');
  }
  if (url.protocol === 'http:' && ctx.config.ssoAllowHttp !== 'true') {
    throw invalid(field, 'must be https (SSO_ALLOW_HTTP allows http)');
  }
}

/** The OIDC client's columns, its secret sealed. */
function oidcValues(ctx: ServiceContext, body: OidcConfigBody) {
  checkUrl(ctx, 'body.issuer', body.issuer);
  return {
    issuer: body.issuer,
    client_id: body.client_id,
    client_secret_encrypted: sealSecret(ctx.config.dataDir, body.client_secret),
    idp_entity_id: null,
    entry_point: null,
    idp_certificate: null,
  };
}

/** The SAML provider's columns, from its metadata or from its sign-on URL and certificate. */
function samlValues(ctx: ServiceContext, body: SamlConfigBody) {
  const field = body.idp_metadata_xml !== undefined ? 'body.idp_metadata_xml' : 'body.entry_point';
  try {
    const settings =
      body.idp_metadata_xml !== undefined
        ? readIdpMetadata(body.idp_metadata_xml)
        : body.entry_point !== undefined && body.idp_certificate !== undefined
          ? {
              entityId: null,
              entryPoint: body.entry_point,
              certificates: certificatesOf(body.idp_certificate),
            }
          : undefined;
    if (!settings) throw invalid(field, 'or entry_point with idp_certificate is needed');
    checkUrl(ctx, field, settings.entryPoint);
    return {
      issuer: null,
      client_id: null,
      client_secret_encrypted: null,
      idp_entity_id: settings.entityId,
      entry_point: settings.entryPoint,
      idp_certificate: settings.certificates.join(''),
    };
  } catch (error) {
    if (error instanceof SamlSettingsError) throw invalid(field, error.message);
    throw error;
  }
}

function providerValues(ctx: ServiceContext, body: SsoConfigBody) {
  const domain = body.email_domains.find((candidate) => !EMAIL_DOMAIN.test(candidate));
  if (domain !== undefined) throw invalid('body.email_domains', 'must be host names');
  return body.protocol === 'oidc' ? oidcValues(ctx, body) : samlValues(ctx, body);
}

export async function putSsoConfig(
  ctx: ServiceContext,
  caller: Caller,
  organizationId: string,
  body: SsoConfigBody,
): Promise<SsoConfig> {
  const provider = providerValues(ctx, body);
  const domains = [...new Set(body.email_domains.map((domain) => domain.toLowerCase()))].sort();
  const now = ctx.clock.now();
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
        ...provider,
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
          client_secret: [
            before ? before.client_secret_encrypted !== null : null,
            saved.client_secret_encrypted !== null,
          ],
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
