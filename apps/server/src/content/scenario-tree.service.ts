import type { ScenarioTree } from '@vrtc/contract';
import { sql } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import { isoOrNull } from '../platform/service/serialize.ts';
import { loadModuleTrees } from './content-tree.ts';

/**
 * The scenarios the caller's organisation may run now: active, with a grant that has no expiry or
 * expires after the clock's now. Four queries for the whole tree.
 */
export async function listScenarioTree(
  ctx: ServiceContext,
  caller: Caller,
): Promise<ScenarioTree[]> {
  const now = ctx.clock.now();
  const scenarios = await ctx.db
    .selectFrom('scenarios as s')
    .innerJoin('scenario_access as a', 'a.scenario_id', 's.id')
    .select([
      's.id',
      's.name',
      's.description',
      's.name_en',
      's.description_en',
      's.active',
      'a.expires_at',
    ])
    .where('a.organization_id', '=', caller.organizationId)
    .where('s.active', '=', true)
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', now)]))
    .orderBy(sql`lower(s.name)`)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
  const modules = await loadModuleTrees(
    ctx.db,
    scenarios.map((s) => s.id),
  );
  // The tree's nodes carry the columns the client needs, in both languages.
  const text = (node: {
    name: string;
    description: string;
    name_en: string | null;
    description_en: string | null;
  }) => ({
    name: node.name,
    description: node.description,
    name_en: node.name_en,
    description_en: node.description_en,
  });
  return scenarios.map((scenario) => ({
    id: scenario.id,
    ...text(scenario),
    active: scenario.active,
    access_expires_at: isoOrNull(scenario.expires_at),
    modules: (modules.get(scenario.id) ?? []).map((module) => ({
      id: module.id,
      ...text(module),
      order_index: module.order_index,
      levels: module.levels.map((level) => ({
        id: level.id,
        ...text(level),
        level_number: level.level_number,
        max_tasks: level.max_tasks,
        options: level.options.map((option) => ({
          id: option.id,
          ...text(option),
          order_index: option.order_index,
        })),
      })),
    })),
  }));
}
