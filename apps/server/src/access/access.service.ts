import type {
  GrantAccessBody,
  GrantAccessResponse,
  RevokeAccessBody,
  ScenarioAccessEntry,
  ScenarioAccessMatrix,
  ScenarioAccessQuery,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { Caller, ServiceContext } from '../platform/context.ts';
import type { Tx } from '../platform/db.ts';
import { AppError, notFound } from '../platform/errors.ts';
import {
  containsPattern,
  hasSearch,
  orderBySql,
  countRows,
  pageOf,
  totalColumn,
  totalOf,
} from '../platform/paging.ts';
import { iso, isoOrNull } from '../platform/serialize.ts';

/**
 * Time-limited scenario access per organisation. A grant is live while it has no expiry or its
 * expiry is later than the clock's now; an expired grant stays (with its dates) until revoked or
 * granted again.
 */

export const EXPIRY_IN_PAST = 'Expiry date cannot be in the past';

async function lockScenario(trx: Tx, id: string): Promise<void> {
  const scenario = await trx
    .selectFrom('scenarios')
    .select('id')
    .where('id', '=', id)
    .forShare()
    .executeTakeFirst();
  if (!scenario) throw notFound('Scenario');
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
    await lockScenario(trx, scenarioId);
    const found = await trx
      .selectFrom('organizations')
      .select('id')
      .where('id', 'in', organizationIds)
      .forShare()
      .execute();
    const known = new Set(found.map((o) => o.id));
    const missing = organizationIds.find((id) => !known.has(id));
    if (missing) throw new AppError('not_found', `Organization ${missing} not found`);

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
  });
  return { granted: organizationIds.length, expires_at: iso(expiresAt) };
}

/** Removes the grants of the named organisations; ids without a grant are ignored. */
export async function revokeAccess(
  ctx: ServiceContext,
  scenarioId: string,
  body: RevokeAccessBody,
): Promise<{ revoked: number }> {
  const organizationIds = [...new Set(body.organization_ids)];
  return ctx.db.transaction().execute(async (trx) => {
    await lockScenario(trx, scenarioId);
    const result = await trx
      .deleteFrom('scenario_access')
      .where('scenario_id', '=', scenarioId)
      .where('organization_id', 'in', organizationIds)
      .executeTakeFirst();
    return { revoked: Number(result.numDeletedRows) };
  });
}

/**
 * A page of scenarios (by name; `q` matches it), each with the organisations that hold a grant
 * for it (live or expired: the dates stay visible), by organisation name, and how many
 * organisations there are in all. The organisations without a grant are not listed: with
 * hundreds of organisations they would be most of the answer (the grant dialog searches the
 * organisations instead).
 */
export async function accessMatrix(
  ctx: ServiceContext,
  query: ScenarioAccessQuery,
): Promise<ScenarioAccessMatrix> {
  const now = ctx.clock.now().getTime();
  const page = pageOf(query);
  let matching = ctx.db.selectFrom('scenarios as s');
  if (hasSearch(query.q)) matching = matching.where('s.name', 'ilike', containsPattern(query.q));
  const scenarios = await matching
    .select(['s.id', 's.name', totalColumn()])
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
  const [total, organizationCount, grants] = await Promise.all([
    totalOf(scenarios, page, matching),
    countRows(ctx.db.selectFrom('organizations')),
    scenarioIds.length === 0
      ? []
      : ctx.db
          .selectFrom('scenario_access as a')
          .innerJoin('organizations as o', 'o.id', 'a.organization_id')
          .select([
            'a.scenario_id',
            'a.organization_id',
            'o.name as organization_name',
            'a.granted_at',
            'a.granted_by',
            'a.expires_at',
          ])
          .where('a.scenario_id', 'in', scenarioIds)
          .orderBy(sql`lower(o.name)`)
          .orderBy('o.id')
          .execute(),
  ]);

  const entries = scenarios.map((scenario): ScenarioAccessEntry => {
    const rows = grants
      .filter((grant) => grant.scenario_id === scenario.id)
      .map((grant) => ({
        organization_id: grant.organization_id,
        organization_name: grant.organization_name,
        has_access: grant.expires_at === null || grant.expires_at.getTime() > now,
        granted_at: isoOrNull(grant.granted_at),
        granted_by: grant.granted_by,
        expires_at: isoOrNull(grant.expires_at),
      }));
    return {
      scenario_id: scenario.id,
      scenario_name: scenario.name,
      total_organizations: organizationCount,
      organizations_with_access: rows.filter((row) => row.has_access).length,
      organizations: rows,
    };
  });
  return { scenario_access: entries, total, ...page };
}
