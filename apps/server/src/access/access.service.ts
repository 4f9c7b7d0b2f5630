import {
  ACCESS_ENTRY_ORGANIZATIONS,
  type GrantAccessBody,
  type GrantAccessResponse,
  type RevokeAccessBody,
  type RevokeAccessResponse,
  type ScenarioAccessEntry,
  type ScenarioAccessMatrix,
  type ScenarioAccessOrganization,
  type ScenarioAccessQuery,
  type ScenarioGrantsPage,
  type ScenarioGrantsQuery,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { Tx } from '../platform/database/db.ts';
import { recordAudit } from '../audit/audit.ts';
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
import { iso, isoOrNull } from '../platform/service/serialize.ts';

/**
 * Time-limited scenario access per organisation. A grant is live while it has no expiry or its
 * expiry is later than the clock's now; an expired grant stays (with its dates) until revoked or
 * granted again.
 */

export const EXPIRY_IN_PAST = 'Expiry date cannot be in the past';

async function lockScenario(
  trx: Tx,
  id: string,
): Promise<{ name: string; name_en: string | null }> {
  const scenario = await trx
    .selectFrom('scenarios')
    .select(['name', 'name_en'])
    .where('id', '=', id)
    .forShare()
    .executeTakeFirst();
  if (!scenario) throw notFound('Scenario');
  return scenario;
}

/** A licence (grant) changed: one event per organisation, in its chain, so its staff see it. */
async function recordGrants(
  trx: Tx,
  caller: Caller,
  at: Date,
  action: 'license.granted' | 'license.revoked',
  scenario: { id: string; name: string; name_en: string | null },
  grants: Array<{
    organization_id: string;
    before: Date | null | undefined;
    after: Date | null | undefined;
  }>,
) {
  for (const grant of grants) {
    const state = (expires: Date | null | undefined) =>
      expires === undefined ? null : { expires_at: expires && iso(expires) };
    await recordAudit(trx, {
      by: caller,
      at,
      action,
      organizationId: grant.organization_id,
      target: { type: 'license', id: scenario.id, label: scenario.name, labelEn: scenario.name_en },
      changes: { grant: [state(grant.before), state(grant.after)] },
    });
  }
}

/** Grants (or re-grants: expiry, time and granter are replaced) the scenario to organisations. */
export async function grantAccess(
  ctx: ServiceContext,
  caller: Caller,
  scenarioId: string,
  body: GrantAccessBody,
): Promise<GrantAccessResponse> {
  const now = ctx.clock.now();
  const expiresAt = new Date(body.expires_at);
  if (Number.isNaN(expiresAt.getTime())) {
    throw new AppError('validation_error', 'body.expires_at must be a valid date-time');
  }
  if (expiresAt.getTime() <= now.getTime()) throw new AppError('validation_error', EXPIRY_IN_PAST);
  const organizationIds = [...new Set(body.organization_ids)];

  await ctx.db.transaction().execute(async (trx) => {
    // Shared locks keep the scenario and the organisations from vanishing before the insert.
    const scenario = await lockScenario(trx, scenarioId);
    const found = await trx
      .selectFrom('organizations')
      .select('id')
      .where('id', 'in', organizationIds)
      .forShare()
      .execute();
    const known = new Set(found.map((o) => o.id));
    const missing = organizationIds.find((id) => !known.has(id));
    if (missing) throw new AppError('not_found', `Organization ${missing} not found`);
    const held = await trx
      .selectFrom('scenario_access')
      .select(['organization_id', 'expires_at'])
      .where('scenario_id', '=', scenarioId)
      .where('organization_id', 'in', organizationIds)
      .execute();
    const before = new Map(held.map((grant) => [grant.organization_id, grant.expires_at]));

    await trx
      .insertInto('scenario_access')
      .values(
        organizationIds.map((organizationId) => ({
          scenario_id: scenarioId,
          organization_id: organizationId,
          granted_at: now,
          granted_by: caller.email,
          expires_at: expiresAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['scenario_id', 'organization_id']).doUpdateSet((eb) => ({
          granted_at: eb.ref('excluded.granted_at'),
          granted_by: eb.ref('excluded.granted_by'),
          expires_at: eb.ref('excluded.expires_at'),
        })),
      )
      .execute();
    await recordGrants(
      trx,
      caller,
      now,
      'license.granted',
      { id: scenarioId, ...scenario },
      organizationIds.map((id) => ({
        organization_id: id,
        before: before.get(id),
        after: expiresAt,
      })),
    );
  });
  return { granted: organizationIds.length, expires_at: iso(expiresAt) };
}

/**
 * Removes the grants of the named organisations (ids without a grant are ignored), or every live
 * grant of the scenario (revoke-all); expired grants stay listed unless named.
 */
export async function revokeAccess(
  ctx: ServiceContext,
  caller: Caller,
  scenarioId: string,
  body: RevokeAccessBody,
): Promise<RevokeAccessResponse> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const scenario = await lockScenario(trx, scenarioId);
    let revoking = trx.deleteFrom('scenario_access').where('scenario_id', '=', scenarioId);
    revoking =
      'organization_ids' in body
        ? revoking.where('organization_id', 'in', [...new Set(body.organization_ids)])
        : revoking.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    const revoked = await revoking.returning(['organization_id', 'expires_at']).execute();
    await recordGrants(
      trx,
      caller,
      now,
      'license.revoked',
      { id: scenarioId, ...scenario },
      revoked.map((grant) => ({
        organization_id: grant.organization_id,
        before: grant.expires_at,
        after: undefined,
      })),
    );
    return { revoked: revoked.length };
  });
}

/** Grants with their organisations (the matrix's and the grants page's rows). */
const grantsFrom = (db: ServiceContext['db']) =>
  db
    .selectFrom('scenario_access as a')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id');

const grantColumns = [
  'a.scenario_id',
  'a.organization_id',
  'o.name as organization_name',
  'a.granted_at',
  'a.granted_by',
  'a.expires_at',
] as const;

type GrantRow = {
  organization_id: string;
  organization_name: string;
  granted_at: Date | null;
  granted_by: string | null;
  expires_at: Date | null;
};

const liveAt = (now: number) => (grant: GrantRow) =>
  grant.expires_at === null || grant.expires_at.getTime() > now;

function accessOrganization(grant: GrantRow, now: number): ScenarioAccessOrganization {
  return {
    organization_id: grant.organization_id,
    organization_name: grant.organization_name,
    has_access: liveAt(now)(grant),
    granted_at: isoOrNull(grant.granted_at),
    granted_by: grant.granted_by,
    expires_at: isoOrNull(grant.expires_at),
  };
}

/** The order of a scenario's grants; by organisation name unless the query sorts otherwise. */
const grantOrder = (query: ScenarioGrantsQuery) =>
  orderBySql(
    query,
    {
      organization_name: sql`lower(o.name)`,
      granted_at: sql`a.granted_at`,
      expires_at: sql`a.expires_at`,
    },
    'organization_name',
    [sql`o.id`],
  );

/**
 * A page of scenarios (by name; `q` matches it), each with the first page of the organisations
 * that hold a grant for it (live or expired: the dates stay visible) by organisation name, how
 * many hold one, how many have access, and how many organisations there are in all. The rest of
 * a scenario's grants are paged by `scenarioGrants`: a page of scenarios carrying every grant
 * would grow with the organisations (10 scenarios × 100 organisations is 160 KB).
 */
export async function accessMatrix(
  ctx: ServiceContext,
  query: ScenarioAccessQuery,
): Promise<ScenarioAccessMatrix> {
  const now = ctx.clock.now();
  const page = pageOf(query);
  let matching = ctx.db.selectFrom('scenarios as s');
  if (hasSearch(query.q)) {
    const pattern = containsPattern(query.q);
    // Either name: the English console shows the English one.
    matching = matching.where((eb) =>
      eb.or([eb('s.name', 'ilike', pattern), eb('s.name_en', 'ilike', pattern)]),
    );
  }
  const scenarios = await matching
    .select(['s.id', 's.name', 's.name_en', totalColumn()])
    .orderBy(
      orderBySql(query, { scenario_name: sql`lower(s.name)` }, 'scenario_name', [
        sql`s.created_at`,
        sql`s.id`,
      ]),
    )
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const scenarioIds = scenarios.map((scenario) => scenario.id);
  const perScenario = sql`PARTITION BY a.scenario_id`;
  const [total, organizationCount, grants] = await Promise.all([
    totalOf(scenarios, page, matching),
    countRows(ctx.db.selectFrom('organizations')),
    scenarioIds.length === 0
      ? []
      : ctx.db
          .selectFrom(
            grantsFrom(ctx.db)
              .select(grantColumns)
              .select([
                sql<number>`row_number() OVER (${perScenario} ORDER BY ${grantOrder({})})`.as(
                  'position',
                ),
                sql<number>`count(*) OVER (${perScenario})::int`.as('granted'),
                sql<number>`(count(*) FILTER (WHERE a.expires_at IS NULL OR a.expires_at > ${now})
                  OVER (${perScenario}))::int`.as('live'),
              ])
              .where('a.scenario_id', 'in', scenarioIds)
              .as('g'),
          )
          .selectAll()
          .where('g.position', '<=', ACCESS_ENTRY_ORGANIZATIONS)
          .orderBy('g.position')
          .execute(),
  ]);

  const entries = scenarios.map((scenario): ScenarioAccessEntry => {
    const rows = grants.filter((grant) => grant.scenario_id === scenario.id);
    return {
      scenario_id: scenario.id,
      scenario_name: scenario.name,
      scenario_name_en: scenario.name_en,
      total_organizations: organizationCount,
      organizations_with_access: rows[0]?.live ?? 0,
      organizations_with_grant: rows[0]?.granted ?? 0,
      organizations: rows.map((grant) => accessOrganization(grant, now.getTime())),
    };
  });
  return { scenario_access: entries, total, ...page };
}

/** A page of one scenario's grants, live and expired (`q` matches the organisation's name). */
export async function scenarioGrants(
  ctx: ServiceContext,
  scenarioId: string,
  query: ScenarioGrantsQuery,
): Promise<ScenarioGrantsPage> {
  const now = ctx.clock.now().getTime();
  const page = pageOf(query);
  let matching = grantsFrom(ctx.db).where('a.scenario_id', '=', scenarioId);
  if (hasSearch(query.q)) matching = matching.where('o.name', 'ilike', containsPattern(query.q));
  const [scenario, grants] = await Promise.all([
    ctx.db.selectFrom('scenarios').select('id').where('id', '=', scenarioId).executeTakeFirst(),
    matching
      .select(grantColumns)
      .select(totalColumn())
      .orderBy(grantOrder(query))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  if (!scenario) throw notFound('Scenario');
  return {
    organizations: grants.map((grant) => accessOrganization(grant, now)),
    total: await totalOf(grants, page, matching),
    ...page,
  };
}
