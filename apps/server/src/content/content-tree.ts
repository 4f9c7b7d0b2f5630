import type { ContentLevelDetail, ContentModuleDetail } from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import { iso } from '../platform/service/serialize.ts';

/** What the content calls answer of each item (content.service.ts) and the trees below. */
export const moduleColumns = [
  'id',
  'scenario_id',
  'name',
  'description',
  'name_en',
  'description_en',
  'order_index',
  'created_at',
] as const;
export const levelColumns = [
  'id',
  'module_id',
  'name',
  'level_number',
  'description',
  'name_en',
  'description_en',
  'max_tasks',
  'created_at',
] as const;
export const optionColumns = [
  'id',
  'level_id',
  'name',
  'description',
  'name_en',
  'description_en',
  'order_index',
  'created_at',
] as const;

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

  const moduleIds = db.selectFrom('modules').select('id').where('scenario_id', 'in', ids);
  const [modules, levels, options] = await Promise.all([
    db
      .selectFrom('modules')
      .select(moduleColumns)
      .where('scenario_id', 'in', ids)
      .orderBy('order_index')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('levels')
      .select(levelColumns)
      .where('module_id', 'in', moduleIds)
      .orderBy('level_number')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('level_options')
      .select(optionColumns)
      .where(
        'level_id',
        'in',
        db.selectFrom('levels').select('id').where('module_id', 'in', moduleIds),
      )
      .orderBy('order_index')
      .orderBy('created_at')
      .orderBy('id')
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
