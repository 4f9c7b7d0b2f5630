import {
  DELIVERY_LIST_DEFAULT_LIMIT,
  type Delivery,
  type DeliveryListQuery,
  type DeliveryPage,
  type Integration,
  type IntegrationCreateBody,
  type IntegrationEvent,
  type IntegrationList,
  type IntegrationListQuery,
  type IntegrationUpdateBody,
  type IntegrationWithSecret,
} from '@vrtc/contract';
import type { Selectable } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import { changedFields, createdChanges, deletedChanges, recordAudit } from '../audit/audit.ts';
import { wakeDispatchers } from '../outbox/outbox.ts';
import type { Tx } from '../platform/database/db.ts';
import type { DeliveriesTable, IntegrationsTable } from '../platform/database/schema.ts';
import { isForeignKeyViolation } from '../platform/database/pg-errors.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, invalidCursor, notFound } from '../platform/service/errors.ts';
import { readKeysetPage } from '../platform/database/paging.ts';
import { checkQuota } from '../platform/service/quota.ts';
import { isoOrNull } from '../platform/service/serialize.ts';
import { disableIntegration } from './delivery-store.ts';
import { OutboundPolicy, isRefusedUrl } from './outbound.ts';
import { sealSecret } from './secret-box.ts';
import { newSigningSecret } from './signing.ts';

/**
 * An organisation's integrations (docs/integrations.md): staff manage their own organisation's,
 * admins any organisation's. Every change writes its audit event in its transaction, secrets
 * redacted by the audit log.
 */

type IntegrationRow = Selectable<IntegrationsTable>;
type DeliveryRow = Selectable<DeliveriesTable>;

export function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    organization_id: row.organization_id,
    kind: row.kind,
    url: row.url,
    events: row.events as IntegrationEvent[],
    include_names: row.include_names,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: isoOrNull(row.disabled_at),
    xapi_key: row.xapi_key,
    previous_secret_expires_at: isoOrNull(row.previous_secret_expires_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    integration_id: row.integration_id,
    event_id: row.event_id,
    event_type: row.event_type as IntegrationEvent,
    status: row.status,
    attempts: row.attempts,
    created_at: row.created_at.toISOString(),
    next_attempt_at: isoOrNull(row.next_attempt_at),
    last_attempt_at: isoOrNull(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_duration_ms: row.last_duration_ms,
    last_response: row.last_response,
    last_error: row.last_error as Delivery['last_error'],
    delivered_at: isoOrNull(row.delivered_at),
  };
}

/** The organisation a caller acts on: staff their own (another's id: 404), admins any. */
function organizationOf(caller: Caller, organizationId: string | undefined): string {
  if (organizationId === undefined || organizationId === caller.organizationId) {
    return caller.organizationId;
  }
  if (caller.role !== 'admin') throw notFound('Organization');
  return organizationId;
}

/** An integration the caller may manage, locked for the transaction's change; else 404. */
export async function owned(trx: Tx, caller: Caller, id: string): Promise<IntegrationRow> {
  let query = trx.selectFrom('integrations').selectAll().where('id', '=', id);
  if (caller.role !== 'admin') query = query.where('organization_id', '=', caller.organizationId);
  // NO KEY UPDATE, as the dispatcher: changes committing events for it go on meanwhile.
  const row = await query.forNoKeyUpdate().executeTakeFirst();
  if (!row) throw notFound('Integration');
  return row;
}

const invalid = (field: string, message: string) =>
  new AppError('validation_error', message, { details: { field } });

async function checkUrl(ctx: ServiceContext, url: string): Promise<void> {
  const protocol = URL.canParse(url) ? new URL(url).protocol : '';
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw invalid('body.url', 'url must be an http or https URL');
  }
  const policy = new OutboundPolicy(ctx.config.outboundAllowPrivate);
  if (await isRefusedUrl(policy, url)) {
    throw new AppError(
      'outbound_address_refused',
      'The URL points to a loopback, private, link-local or metadata address',
      { details: { field: 'body.url' } },
    );
  }
}

/**
 * An LRS's URL is a base its resources are built on (<url>/statements): a query or a fragment in
 * it would end up in front of, or swallow, what is appended, so neither is taken.
 */
function checkLrsBase(url: string): void {
  if (/[?#]/.test(url)) {
    throw invalid('body.url', 'an xapi url is a base URL: no query (?) or fragment (#)');
  }
}

/** What the audit log records of an integration (secrets are redacted by the log itself). */
const audited = (row: IntegrationRow) => ({
  kind: row.kind,
  url: row.url,
  events: row.events,
  include_names: row.include_names,
  enabled: row.enabled,
  xapi_key: row.xapi_key,
});

export async function listIntegrations(
  ctx: ServiceContext,
  caller: Caller,
  query: IntegrationListQuery,
): Promise<IntegrationList> {
  const organizationId = organizationOf(caller, query.organization_id);
  const rows = await ctx.db
    .selectFrom('integrations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { integrations: rows.map(toIntegration) };
}

export async function getIntegration(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): Promise<Integration> {
  let query = ctx.db.selectFrom('integrations').selectAll().where('id', '=', id);
  if (caller.role !== 'admin') query = query.where('organization_id', '=', caller.organizationId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound('Integration');
  return toIntegration(row);
}

export async function createIntegration(
  ctx: ServiceContext,
  caller: Caller,
  body: IntegrationCreateBody,
): Promise<IntegrationWithSecret> {
  const organizationId = organizationOf(caller, body.organization_id);
  const webhook = body.kind === 'webhook';
  if (webhook) {
    if (!body.events) throw invalid('body.events', 'events is required for a webhook');
    if (body.key !== undefined || body.secret !== undefined) {
      throw invalid('body.key', 'key and secret are for an xapi integration only');
    }
  } else {
    if (body.key === undefined)
      throw invalid('body.key', 'key is required for an xapi integration');
    if (body.secret === undefined) {
      throw invalid('body.secret', 'secret is required for an xapi integration');
    }
    if (body.events && body.events.some((event) => event !== 'session.finished')) {
      throw invalid('body.events', 'an xapi integration receives session.finished only');
    }
  }
  if (!webhook) checkLrsBase(body.url);
  await checkUrl(ctx, body.url);
  const now = ctx.clock.now();
  const secret = webhook ? newSigningSecret() : null;
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      await checkQuota(trx, organizationId, 'integrations', ctx.config.quotas.integrations);
      const created = await trx
        .insertInto('integrations')
        .values({
          organization_id: organizationId,
          kind: body.kind,
          url: body.url,
          events: webhook ? [...new Set(body.events)] : ['session.finished'],
          secret: sealSecret(ctx.config, secret),
          xapi_key: webhook ? null : (body.key ?? null),
          xapi_secret: webhook ? null : sealSecret(ctx.config, body.secret ?? null),
          include_names: body.include_names ?? false,
          enabled: body.enabled ?? true,
          disabled_reason: body.enabled === false ? 'by_user' : null,
          disabled_at: body.enabled === false ? now : null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        by: caller,
        at: now,
        action: 'integration.created',
        organizationId,
        target: { type: 'integration', id: created.id, label: created.url },
        changes: createdChanges({
          ...audited(created),
          secret: webhook ? secret : body.secret,
        }),
      });
      return created;
    });
    return { integration: toIntegration(row), secret };
  } catch (error) {
    if (isForeignKeyViolation(error)) throw notFound('Organization');
    throw error;
  }
}

export async function updateIntegration(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: IntegrationUpdateBody,
): Promise<Integration> {
  if (body.url !== undefined) await checkUrl(ctx, body.url);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const before = await owned(trx, caller, id);
    const webhook = before.kind === 'webhook';
    if (webhook && (body.key !== undefined || body.secret !== undefined)) {
      throw invalid('body.key', 'key and secret are for an xapi integration only');
    }
    if (!webhook && body.events?.some((event) => event !== 'session.finished')) {
      throw invalid('body.events', 'an xapi integration receives session.finished only');
    }
    if (!webhook && body.url !== undefined) checkLrsBase(body.url);
    const enabling = body.enabled === true && !before.enabled;
    const after = await trx
      .updateTable('integrations')
      .set({
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.events !== undefined && webhook ? { events: [...new Set(body.events)] } : {}),
        ...(body.include_names !== undefined ? { include_names: body.include_names } : {}),
        ...(body.key !== undefined ? { xapi_key: body.key } : {}),
        ...(body.secret !== undefined ? { xapi_secret: sealSecret(ctx.config, body.secret) } : {}),
        ...(enabling
          ? { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null }
          : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    let final = after;
    if (body.enabled === false && before.enabled) {
      await disableIntegration(
        trx,
        { integration_id: id, organization_id: before.organization_id, url: after.url },
        'by_user',
        now,
      );
      final = await owned(trx, caller, id);
    }
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'integration.updated',
      organizationId: before.organization_id,
      target: { type: 'integration', id, label: final.url },
      changes: {
        ...changedFields(audited(before), audited(final)),
        ...(body.secret !== undefined ? { secret: [before.xapi_secret, body.secret] } : {}),
        ...(before.disabled_reason !== final.disabled_reason
          ? { disabled_reason: [before.disabled_reason, final.disabled_reason] }
          : {}),
      },
    });
    return final;
  });
  return toIntegration(row);
}

export async function deleteIntegration(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): Promise<{ ok: true }> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await owned(trx, caller, id);
    await trx.deleteFrom('integrations').where('id', '=', id).execute();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'integration.deleted',
      organizationId: before.organization_id,
      target: { type: 'integration', id, label: before.url },
      changes: deletedChanges(audited(before)),
    });
  });
  return { ok: true };
}

/** The delivery log, newest first, by cursor. */
export async function listDeliveries(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  query: DeliveryListQuery,
): Promise<DeliveryPage> {
  await getIntegration(ctx, caller, id);
  const limit = query.limit ?? DELIVERY_LIST_DEFAULT_LIMIT;
  let rows = ctx.db.selectFrom('deliveries').selectAll().where('integration_id', '=', id);
  if (query.event) rows = rows.where('event_type', '=', query.event);
  if (query.status) rows = rows.where('status', '=', query.status);
  const page = await readKeysetPage(
    rows,
    { timeColumn: 'created_at', cursor: query.cursor, limit },
    (row) => ({ at: row.created_at, id: row.id }),
  );
  if (!page) throw invalidCursor();
  return { deliveries: page.rows.map(toDelivery), next_cursor: page.nextCursor, limit };
}

/** Sends one event again, now, with the same id; the attempts so far are kept. */
export async function redeliver(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  deliveryId: string,
): Promise<Delivery> {
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const integration = await owned(trx, caller, id);
    const before = await trx
      .selectFrom('deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .where('integration_id', '=', id)
      .executeTakeFirst();
    if (!before) throw notFound('Delivery');
    if (!integration.enabled) {
      throw new AppError('integration_disabled', 'The integration is disabled');
    }
    const after = await trx
      .updateTable('deliveries')
      .set({ status: 'pending', next_attempt_at: now })
      .where('id', '=', deliveryId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await wakeDispatchers(trx);
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'integration.redelivered',
      organizationId: integration.organization_id,
      target: { type: 'integration', id, label: integration.url },
      changes: {
        delivery_id: [null, deliveryId],
        event_id: [null, before.event_id],
        status: [before.status, 'pending'],
      },
    });
    return after;
  });
  return toDelivery(row);
}
