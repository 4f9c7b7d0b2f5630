import type { ContentLevelDetail, ContentModuleDetail } from '@vrtc/contract';
import type { Db, Tx } from '../platform/db.ts';
import { iso } from '../platform/serialize.ts';

/**
 * The modules → levels → options under the given scenarios, in three queries whatever the size
 * of the tree. Modules come by order_index, levels by level_number, options by order_index (ties
 * by creation, then id, so the order is stable).
 */
export async function loadModuleTrees(
  db: Db | Tx,
  scenarioIds: readonly string[],
): Promise<Map<string, ContentModuleDetail[]>> {
  const byScenario = new Map<string, ContentModuleDetail[]>();
  if (scenarioIds.length === 0) return byScenario;
  const ids = [...new Set(scenarioIds)];

  const [modules, levels, options] = await Promise.all([
    db
      .selectFrom('modules')
      .select([
        'id',
        'scenario_id',
        'name',
        'description',
        'name_en',
        'description_en',
        'order_index',
        'created_at',
      ])
      .where('scenario_id', 'in', ids)
      .orderBy('order_index')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('levels as l')
      .innerJoin('modules as m', 'm.id', 'l.module_id')
      .select([
        'l.id',
        'l.module_id',
        'l.name',
        'l.level_number',
        'l.description',
        'l.name_en',
        'l.description_en',
        'l.max_tasks',
        'l.created_at',
      ])
      .where('m.scenario_id', 'in', ids)
      .orderBy('l.level_number')
      .orderBy('l.created_at')
      .orderBy('l.id')
      .execute(),
    db
      .selectFrom('level_options as o')
      .innerJoin('levels as l', 'l.id', 'o.level_id')
      .innerJoin('modules as m', 'm.id', 'l.module_id')
      .select([
        'o.id',
        'o.level_id',
        'o.name',
        'o.description',
        'o.name_en',
        'o.description_en',
        'o.order_index',
        'o.created_at',
      ])
      .where('m.scenario_id', 'in', ids)
      .orderBy('o.order_index')
      .orderBy('o.created_at')
      .orderBy('o.id')
      .execute(),
  ]);

  const levelsByModule = new Map<string, ContentLevelDetail[]>();
  const levelById = new Map<string, ContentLevelDetail>();
  for (const row of levels) {
    const level: ContentLevelDetail = { ...row, created_at: iso(row.created_at), options: [] };
    levelById.set(level.id, level);
    pushTo(levelsByModule, row.module_id, level);
  }
  for (const row of options) {
    levelById.get(row.level_id)?.options.push({ ...row, created_at: iso(row.created_at) });
  }
  for (const row of modules) {
    pushTo(byScenario, row.scenario_id, {
      ...row,
      created_at: iso(row.created_at),
      levels: levelsByModule.get(row.id) ?? [],
    });
  }
  return byScenario;
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
