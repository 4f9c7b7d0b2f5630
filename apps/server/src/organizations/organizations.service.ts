import {
  type Organization,
  type OrganizationCreateBody,
  type ORGANIZATION_SORT_FIELDS,
  type OrganizationList,
  type OrganizationListQuery,
  type OrganizationStats,
  type OrganizationSummary,
  type OrganizationUpdateBody,
} from '@vrtc/contract';
import { sql, type RawBuilder } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import { changedFields, createdChanges, deletedChanges, recordAudit } from '../audit/audit.ts';
import { endOrganizationSignIns } from '../auth/auth.service.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import {
  containsPattern,
  hasSearch,
  orderBySql,
  countRows,
  pageOf,
  totalColumn,
  totalOf,
} from '../platform/database/paging.ts';
import { iso } from '../platform/service/serialize.ts';
import type { WithDeviceChanges } from '../devices/device-changes.ts';
import type { WithFleetCounts } from '../devices/device-figures.ts';
import type { WithAnalytics } from './organization-analytics.ts';

/** What the organizations services are handed beside the infrastructure. */
export type OrganizationsContext = ServiceContext &
  WithDeviceChanges &
  WithFleetCounts &
  WithAnalytics;

interface OrganizationRow {
  id: string;
  name: string;
  active: boolean;
  mfa_required: boolean;
  created_at: Date;
}

const toOrganization = (row: OrganizationRow, stats?: OrganizationStats): Organization => ({
  id: row.id,
  name: row.name,
  active: row.active,
  mfa_required: row.mfa_required,
  created_at: iso(row.created_at),
  ...(stats ? { stats } : {}),
});

type OrganizationSortField = (typeof ORGANIZATION_SORT_FIELDS)[number];
const FIGURE_SORTS = new Set<OrganizationSortField>([
  'total_users',
  'total_vr_users',
  'total_sessions',
  'success_rate',
  'total_devices',
]);

/**
 * Each organisation's figures, as columns of a query over `organizations as o`: one indexed lookup
 * per organisation and table (accounts, VR users and devices by organisation; sessions from the
 * daily rollup), so the cost follows the organisations asked for, never the whole database.
 */
function figureColumns() {
  // All time: the monthly rollup, a dozen rows a year per organisation.
  const rollup = (figure: RawBuilder<unknown>) =>
    sql`(SELECT ${figure} FROM session_monthly r WHERE r.organization_id = o.id)`;
  return [
    sql<number>`(SELECT count(*)::int FROM accounts a WHERE a.organization_id = o.id)`.as(
      'total_users',
    ),
    sql<number>`(SELECT count(*)::int FROM vr_users v WHERE v.organization_id = o.id)`.as(
      'total_vr_users',
    ),
    sql<number>`${rollup(sql`coalesce(sum(r.sessions), 0)::int`)}`.as('total_sessions'),
    sql<number>`${rollup(sql`coalesce(sum(r.active), 0)::int`)}`.as('active_sessions'),
    sql<number>`${rollup(
      sql`coalesce(round(100.0 * sum(r.successes) / nullif(sum(r.sessions) - sum(r.active), 0), 1), 0)::float8`,
    )}`.as('success_rate'),
    sql<number>`(SELECT count(*)::int FROM devices d WHERE d.organization_id = o.id)`.as(
      'total_devices',
    ),
  ];
}

type OrganizationStatsRow = OrganizationRow & Omit<OrganizationStats, 'online_devices'>;

/**
 * The rows with their figures; online headsets come from the fleet's shared counts
 * (device-figures.ts): counted in SQL they read every headset of each organisation listed.
 */
async function withStats(
  ctx: OrganizationsContext,
  rows: OrganizationStatsRow[],
): Promise<Organization[]> {
  const devices = await ctx.deviceFigures.countsBy('organization_id');
  return rows.map((row) =>
    toOrganization(row, {
      total_users: row.total_users,
      total_vr_users: row.total_vr_users,
      total_sessions: row.total_sessions,
      active_sessions: row.active_sessions,
      success_rate: row.success_rate,
      total_devices: row.total_devices,
      online_devices: devices.get(row.id)?.online ?? 0,
    }),
  );
}

const SORT_COLUMNS: Record<OrganizationSortField, RawBuilder<unknown>> = {
  name: sql`lower(o.name)`,
  active: sql`o.active`,
  created_at: sql`o.created_at`,
  total_users: sql`total_users`,
  total_vr_users: sql`total_vr_users`,
  total_sessions: sql`total_sessions`,
  success_rate: sql`success_rate`,
  total_devices: sql`total_devices`,
};

/** Figures over every organisation: the stat cards above the table. */
async function organizationSummary(ctx: OrganizationsContext): Promise<OrganizationSummary> {
  const [row, devices] = await Promise.all([
    ctx.db
      .selectNoFrom([
        sql<number>`(SELECT count(*)::int FROM organizations)`.as('total'),
        sql<number>`(SELECT count(*)::int FROM organizations WHERE active)`.as('active'),
        sql<number>`(SELECT coalesce(sum(sessions), 0)::int FROM session_daily_all)`.as(
          'total_sessions',
        ),
      ])
      .executeTakeFirstOrThrow(),
    ctx.deviceFigures.counts(),
  ]);
  return { ...row, total_devices: devices.total, online_devices: devices.online };
}

/**
 * A page of organisations, by name unless sorted otherwise. With include_stats, each carries its
 * figures and the answer a summary. Sorted by a column of their own, figures are looked up for the
 * page's organisations only; sorted by a figure, for every organisation (there are few).
 */
export async function listOrganizations(
  ctx: OrganizationsContext,
  query: OrganizationListQuery,
): Promise<OrganizationList> {
  const sortByFigure = query.sort !== undefined && FIGURE_SORTS.has(query.sort);
  if (sortByFigure && !query.include_stats) {
    throw new AppError(
      'validation_error',
      `querystring.sort: sorting by ${query.sort} needs include_stats=true`,
    );
  }
  const page = pageOf(query);
  let matching = ctx.db.selectFrom('organizations as o');
  if (hasSearch(query.q)) matching = matching.where('o.name', 'ilike', containsPattern(query.q));
  const order = orderBySql(query, SORT_COLUMNS, 'name', [sql`o.name`, sql`o.id`]);
  if (!query.include_stats) {
    const rows = await matching
      .select(['o.id', 'o.name', 'o.active', 'o.mfa_required', 'o.created_at', totalColumn()])
      .orderBy(order)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = await totalOf(rows, page, matching);
    return { organizations: rows.map((row) => toOrganization(row)), total, ...page };
  }

  const columns = [
    'o.id',
    'o.name',
    'o.active',
    'o.mfa_required',
    'o.created_at',
    ...figureColumns(),
  ] as const;
  const pageRows = sortByFigure
    ? await matching.select(columns).orderBy(order).limit(page.limit).offset(page.offset).execute()
    : await ctx.db
        .selectFrom(
          matching.selectAll('o').orderBy(order).limit(page.limit).offset(page.offset).as('o'),
        )
        .select(columns)
        .orderBy(order)
        .execute();
  const [organizations, total, summary] = await Promise.all([
    withStats(ctx, pageRows),
    countRows(matching),
    organizationSummary(ctx),
  ]);
  return { organizations, total, ...page, summary };
}

export async function getOrganization(
  ctx: OrganizationsContext,
  id: string,
): Promise<Organization> {
  const row = await ctx.db
    .selectFrom('organizations as o')
    .select(['o.id', 'o.name', 'o.active', 'o.mfa_required', 'o.created_at', ...figureColumns()])
    .where('o.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Organization');
  const [organization] = await withStats(ctx, [row]);
  return organization!;
}

export async function createOrganization(
  ctx: OrganizationsContext,
  caller: Caller,
  body: OrganizationCreateBody,
) {
  const name = body.name.trim();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('organizations')
      .values({ name, created_at: ctx.clock.now() })
      .returning(['id', 'active'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'organization.created',
      organizationId: created.id,
      target: { type: 'organization', id: created.id, label: name },
      changes: createdChanges({ name, active: created.active }),
    });
    return created;
  });
  return getOrganization(ctx, row.id);
}

/**
 * Renames and (de)activates. Deactivating ends every sign-in of the organisation's accounts at once
 * (their tokens are refused, and removed so reactivating does not revive them). An admin may not
 * deactivate their own organisation: that would lock them out.
 */
export async function updateOrganization(
  ctx: OrganizationsContext,
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
      .select(['id', 'name', 'active', 'mfa_required'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw notFound('Organization');
    const changes = {
      ...(name !== undefined ? { name } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      ...(body.mfa_required !== undefined ? { mfa_required: body.mfa_required } : {}),
    };
    if (Object.keys(changes).length > 0) {
      await trx.updateTable('organizations').set(changes).where('id', '=', id).execute();
    }
    if (body.active !== undefined && body.active !== current.active) {
      // Device tokens of a deactivated organisation are refused from now on.
      await ctx.deviceEvents.allChanged(trx);
    }
    if (current.active && body.active === false) await endOrganizationSignIns(trx, id);
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'organization.updated',
      organizationId: id,
      target: { type: 'organization', id, label: changes.name ?? current.name },
      changes: changedFields(current, changes),
    });
  });
  return getOrganization(ctx, id);
}

const plural = (count: number, noun: string) => `${count} ${noun}(s)`;

/**
 * Deletes an organisation that holds nothing: refused (organization_in_use) while it has accounts,
 * VR users, devices or sessions. Its scenario grants and enrolment code go with it.
 */
export async function deleteOrganization(ctx: OrganizationsContext, caller: Caller, id: string) {
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
        { details: { name: organization.name, ...held } },
      );
    }
    await trx.deleteFrom('organizations').where('id', '=', id).execute();
    // The last event of its chain, which stays: the record outlives the organisation.
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'organization.deleted',
      organizationId: id,
      target: { type: 'organization', id, label: organization.name },
      changes: deletedChanges({ name: organization.name }),
    });
  });
}
