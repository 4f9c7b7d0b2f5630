import { DELIVERY_RETENTION_DAYS } from '@vrtc/contract';
import { sql } from 'kysely';
import { recordOutbox } from '../outbox/outbox.ts';
import { DatabaseLostError } from '../platform/database/db.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { noReport, repeatingJob, type JobReport } from '../platform/ops/job-monitor.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { isSealed, sealSecret } from './secret-box.ts';

const DAY_MS = 24 * 3600 * 1000;
/** license.expiring goes this long before a scenario licence ends. */
export const LICENSE_NOTICE_DAYS = 7;
const UPKEEP_EVERY_MS = 3600 * 1000;
const UPKEEP_FIRST_AFTER_MS = 30_000;

/**
 * Tells integrations of licences ending within 7 days, once per licence end: the notice row and the
 * outbox event are written in one transaction, and the notice's key makes a second process (or a
 * second run) write nothing. A licence extended to a new end is told of again before that end.
 */
export async function checkExpiringLicenses(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  const horizon = new Date(now.getTime() + LICENSE_NOTICE_DAYS * DAY_MS);
  const due = await ctx.db
    .selectFrom('scenario_access as a')
    .innerJoin('scenarios as s', 's.id', 'a.scenario_id')
    .select(['a.scenario_id', 'a.organization_id', 'a.expires_at', 's.name', 's.name_en'])
    .where('a.expires_at', '>', now)
    .where('a.expires_at', '<=', horizon)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('license_expiry_notices as n')
            .select(sql`1`.as('one'))
            .whereRef('n.scenario_id', '=', 'a.scenario_id')
            .whereRef('n.organization_id', '=', 'a.organization_id')
            .whereRef('n.expires_at', '=', 'a.expires_at'),
        ),
      ),
    )
    .execute();
  let told = 0;
  for (const licence of due) {
    const expiresAt = licence.expires_at!;
    told += await ctx.db.transaction().execute(async (trx) => {
      const noted = await trx
        .insertInto('license_expiry_notices')
        .values({
          scenario_id: licence.scenario_id,
          organization_id: licence.organization_id,
          expires_at: expiresAt,
          sent_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('scenario_id')
        .executeTakeFirst();
      if (!noted) return 0;
      await recordOutbox(trx, {
        organizationId: licence.organization_id,
        type: 'license.expiring',
        at: now,
        data: {
          organization_id: licence.organization_id,
          scenario: { id: licence.scenario_id, name: licence.name, name_en: licence.name_en },
          expires_at: expiresAt.toISOString(),
        },
      });
      return 1;
    });
  }
  return told;
}

/** Deletes deliveries and outbox events older than DELIVERY_RETENTION_DAYS. */
export async function purgeDeliveries(ctx: ServiceContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - DELIVERY_RETENTION_DAYS * DAY_MS);
  // Deliveries go with their events (ON DELETE CASCADE).
  const deleted = await ctx.db
    .deleteFrom('outbox_events')
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  await ctx.db.deleteFrom('license_expiry_notices').where('expires_at', '<', cutoff).execute();
  return Number(deleted.numDeletedRows);
}

/**
 * Encrypts the secrets written before they were encrypted at rest (secret-box.ts), once, at start.
 * Each value is replaced only while it is still the one read, so a rotation meanwhile wins.
 */
export async function encryptStoredSecrets(ctx: ServiceContext): Promise<number> {
  const columns = ['secret', 'previous_secret', 'xapi_secret'] as const;
  const rows = await ctx.db
    .selectFrom('integrations')
    .select(['id', ...columns])
    .where((eb) =>
      eb.or(
        columns.map((column) =>
          eb.and([eb(column, 'is not', null), eb(column, 'not like', 'enc:v1:%')]),
        ),
      ),
    )
    .execute();
  let sealed = 0;
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column];
      if (value === null || isSealed(value)) continue;
      const result = await ctx.db
        .updateTable('integrations')
        .set({ [column]: sealSecret(ctx.config, value) })
        .where('id', '=', row.id)
        .where(column, '=', value)
        .executeTakeFirst();
      sealed += Number(result.numUpdatedRows);
    }
  }
  return sealed;
}

const startUpkeep = repeatingJob<ServiceContext>({
  job: 'integrations_upkeep',
  everyMs: UPKEEP_EVERY_MS,
  firstAfterMs: UPKEEP_FIRST_AFTER_MS,
  run: async (ctx) => {
    await checkExpiringLicenses(ctx);
    await purgeDeliveries(ctx);
  },
  failureMessage: 'integrations upkeep failed; retrying within the hour',
});

/**
 * Every hour in every process: the licence check and the retention purge; once at start, the
 * stored secrets still in the clear are sealed.
 */
export function startIntegrationsUpkeep(
  app: AppInstance,
  ctx: ServiceContext,
  report: JobReport = noReport,
) {
  startUpkeep(app, ctx, report);
  encryptStoredSecrets(ctx).catch((error: unknown) => {
    if (error instanceof DatabaseLostError) return;
    ctx.log.error({ err: error }, 'encrypting stored integration secrets failed; next start');
  });
}
