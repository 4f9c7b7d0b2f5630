import {
  ORGANIZATION_ANALYTICS_DEFAULT_DAYS,
  ORGANIZATION_ANALYTICS_TOP_VR_USERS,
  type Organization,
  type OrganizationAnalytics,
  type OrganizationAnalyticsQuery,
  type OrganizationCreateBody,
  type OrganizationListQuery,
  type OrganizationStats,
  type OrganizationUpdateBody,
} from '@vrtc/contract';
import { sql } from 'kysely';
import { deviceOnlineSql } from '../devices/device-status.ts';
import type { Caller, ServiceContext } from '../platform/context.ts';
import { AppError, notFound } from '../platform/errors.ts';
import { iso } from '../platform/serialize.ts';
import {
  countSql,
  countWhereSql,
  groupKeySql,
  groupedNameSql,
  sessionFilterSql,
  successRateSql,
  type SessionFilter,
} from '../stats/stats-sql.ts';
import { scenarioStats } from '../stats/stats.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

interface OrganizationRow {
  id: string;
  name: string;
  active: boolean;
  created_at: Date;
}

const toOrganization = (row: OrganizationRow, stats?: OrganizationStats): Organization => ({
  id: row.id,
  name: row.name,
  active: row.active,
  created_at: iso(row.created_at),
  ...(stats ? { stats } : {}),
});

/**
 * Organisations with their figures: one grouped subquery per table, joined once, so the cost does
 * not grow with one query per organisation.
 */
function selectOrganizationsWithStats(ctx: ServiceContext) {
  const online = deviceOnlineSql('d', ctx.clock.now(), ctx.config.offlineAfterMs);
  return ctx.db
    .selectFrom('organizations as o')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('accounts')
          .select(['organization_id', countSql().as('total')])
          .groupBy('organization_id')
          .as('a'),
      (join) => join.onRef('a.organization_id', '=', 'o.id'),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('vr_users')
          .select(['organization_id', countSql().as('total')])
          .groupBy('organization_id')
          .as('v'),
      (join) => join.onRef('v.organization_id', '=', 'o.id'),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('sessions as s')
          .select([
            's.organization_id',
            countSql().as('total'),
            countWhereSql(sql`s.status = 'active'`).as('active'),
            successRateSql('s').as('success_rate'),
          ])
          .groupBy('s.organization_id')
          .as('ses'),
      (join) => join.onRef('ses.organization_id', '=', 'o.id'),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('devices as d')
          .select(['d.organization_id', countSql().as('total'), countWhereSql(online).as('online')])
          .groupBy('d.organization_id')
          .as('dev'),
      (join) => join.onRef('dev.organization_id', '=', 'o.id'),
    )
    .select([
      'o.id',
      'o.name',
      'o.active',
      'o.created_at',
      sql<number>`coalesce(a.total, 0)`.as('total_users'),
      sql<number>`coalesce(v.total, 0)`.as('total_vr_users'),
      sql<number>`coalesce(ses.total, 0)`.as('total_sessions'),
      sql<number>`coalesce(ses.active, 0)`.as('active_sessions'),
      sql<number>`coalesce(ses.success_rate, 0)`.as('success_rate'),
      sql<number>`coalesce(dev.total, 0)`.as('total_devices'),
      sql<number>`coalesce(dev.online, 0)`.as('online_devices'),
    ]);
}

type OrganizationStatsRow = OrganizationRow & OrganizationStats;

const withStats = (row: OrganizationStatsRow): Organization =>
  toOrganization(row, {
    total_users: row.total_users,
    total_vr_users: row.total_vr_users,
    total_sessions: row.total_sessions,
    active_sessions: row.active_sessions,
    success_rate: row.success_rate,
    total_devices: row.total_devices,
    online_devices: row.online_devices,
  });

export async function listOrganizations(
  ctx: ServiceContext,
  query: OrganizationListQuery,
): Promise<Organization[]> {
  if (query.include_stats) {
    const rows = await selectOrganizationsWithStats(ctx)
      .orderBy(sql`lower(o.name)`)
      .orderBy('o.created_at')
      .execute();
    return rows.map(withStats);
  }
  const rows = await ctx.db
    .selectFrom('organizations')
    .select(['id', 'name', 'active', 'created_at'])
    .orderBy(sql`lower(name)`)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => toOrganization(row));
}

export async function getOrganization(ctx: ServiceContext, id: string): Promise<Organization> {
  const row = await selectOrganizationsWithStats(ctx).where('o.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Organization');
  return withStats(row);
}

export async function createOrganization(ctx: ServiceContext, body: OrganizationCreateBody) {
  const row = await ctx.db
    .insertInto('organizations')
    .values({ name: body.name.trim(), created_at: ctx.clock.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getOrganization(ctx, row.id);
}

/**
 * Renames and (de)activates. Deactivating ends every sign-in of the organisation's accounts at once
 * (their tokens are refused, and removed so reactivating does not revive them). An admin may not
 * deactivate their own organisation: that would lock them out.
 */
export async function updateOrganization(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: OrganizationUpdateBody,
) {
  const name = body.name === undefined ? undefined : body.name.trim();
  if (body.active === false && id === caller.organizationId) {
    throw new AppError(
      'cannot_deactivate_own_organization',
      'You cannot deactivate your own organization: you would lose access to the console.',
    );
  }
  await ctx.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('organizations')
      .select(['id', 'active'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw notFound('Organization');
    const changes = {
      ...(name !== undefined ? { name } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
    };
    if (Object.keys(changes).length > 0) {
      await trx.updateTable('organizations').set(changes).where('id', '=', id).execute();
    }
    if (body.active !== undefined && body.active !== current.active) {
      // Device tokens of a deactivated organisation are refused from now on.
      await ctx.deviceEvents.allChanged(trx);
    }
    if (current.active && body.active === false) {
      await trx
        .deleteFrom('auth_tokens')
        .where('account_id', 'in', (eb) =>
          eb.selectFrom('accounts').select('id').where('organization_id', '=', id),
        )
        .execute();
    }
  });
  return getOrganization(ctx, id);
}

const plural = (count: number, noun: string) => `${count} ${noun}(s)`;

/**
 * Deletes an organisation that holds nothing: refused (organization_in_use) while it has accounts,
 * VR users, devices or sessions. Its scenario grants and enrolment code go with it.
 */
export async function deleteOrganization(ctx: ServiceContext, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    // The row lock makes a concurrent insert referencing it wait for this decision.
    const organization = await trx
      .selectFrom('organizations')
      .select(['id', 'name'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!organization) throw notFound('Organization');
    const count = (table: 'accounts' | 'vr_users' | 'devices' | 'sessions') =>
      sql<number>`(SELECT count(*)::int FROM ${sql.table(table)} WHERE organization_id = ${id})`;
    const held = await trx
      .selectNoFrom([
        count('accounts').as('accounts'),
        count('vr_users').as('vr_users'),
        count('devices').as('devices'),
        count('sessions').as('sessions'),
      ])
      .executeTakeFirstOrThrow();
    const parts = [
      held.accounts > 0 ? plural(held.accounts, 'account') : undefined,
      held.vr_users > 0 ? plural(held.vr_users, 'VR user') : undefined,
      held.devices > 0 ? plural(held.devices, 'device') : undefined,
      held.sessions > 0 ? plural(held.sessions, 'session') : undefined,
    ].filter((part): part is string => part !== undefined);
    if (parts.length > 0) {
      throw new AppError(
        'organization_in_use',
        `Cannot delete ${organization.name} - it has ${parts.join(', ')}. ` +
          'Deactivate the organization instead.',
      );
    }
    await trx.deleteFrom('organizations').where('id', '=', id).execute();
  });
}

/** Figures over the organisation's sessions started in the last `days` days. */
export async function organizationAnalytics(
  ctx: ServiceContext,
  id: string,
  query: OrganizationAnalyticsQuery,
): Promise<OrganizationAnalytics> {
  const days = query.days ?? ORGANIZATION_ANALYTICS_DEFAULT_DAYS;
  const exists = await ctx.db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!exists) throw notFound('Organization');
  const now = ctx.clock.now();
  const filter: SessionFilter = {
    organizationId: id,
    startedFrom: new Date(now.getTime() - days * DAY_MS),
    startedBefore: new Date(now.getTime() + 1),
  };
  const [vrUsers, devices, scenarios] = await Promise.all([
    ctx.db
      .selectFrom('sessions as s')
      .leftJoin('vr_users as v', 'v.id', 's.vr_user_id')
      .select([
        's.vr_user_id',
        groupedNameSql('v.name', 's.vr_user_name').as('name'),
        countSql().as('session_count'),
        successRateSql('s').as('success_rate'),
      ])
      .where(sessionFilterSql('s', filter))
      .groupBy(groupKeySql('s.vr_user_id', 's.vr_user_name'))
      .orderBy('session_count', 'desc')
      .orderBy('name')
      .limit(ORGANIZATION_ANALYTICS_TOP_VR_USERS)
      .execute(),
    ctx.db
      .selectFrom('sessions as s')
      .leftJoin('devices as d', 'd.id', 's.device_id')
      .select([
        's.device_id',
        groupedNameSql('d.name', 's.device_name').as('device_name'),
        groupedNameSql('d.type', 's.device_type').as('device_type'),
        countSql().as('session_count'),
      ])
      .where(sessionFilterSql('s', filter))
      .groupBy([
        ...groupKeySql('s.device_id', 's.device_name'),
        ...groupKeySql('s.device_id', 's.device_type'),
      ])
      .orderBy('session_count', 'desc')
      .orderBy('device_name')
      .execute(),
    scenarioStats(ctx.db, filter),
  ]);
  return {
    days,
    top_vr_users: vrUsers,
    device_usage: devices,
    scenario_stats: scenarios.map((s) => ({
      scenario_name: s.scenario_name,
      session_count: s.total_sessions,
      success_rate: s.success_rate,
      average_completion: s.average_completion,
    })),
  };
}
