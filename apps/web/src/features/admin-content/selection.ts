import type { ContentKind } from '../../api/content';

/** The chosen scenario, module and level: the parents of the modules, levels and options tabs. */
export interface ContentSelection {
  scenarioId: string | null;
  moduleId: string | null;
  levelId: string | null;
}

export const emptySelection: ContentSelection = { scenarioId: null, moduleId: null, levelId: null };

/** Choosing a scenario clears the module and level; choosing a module clears the level. */
export function selectScenario(
  _current: ContentSelection,
  scenarioId: string | null,
): ContentSelection {
  return { scenarioId, moduleId: null, levelId: null };
}

export function selectModule(current: ContentSelection, moduleId: string | null): ContentSelection {
  return { ...current, moduleId, levelId: null };
}

export function selectLevel(current: ContentSelection, levelId: string | null): ContentSelection {
  return { ...current, levelId };
}

/** The parent a new item of this kind goes under (none for a scenario). */
export function parentOf(kind: ContentKind, selection: ContentSelection): string | null {
  if (kind === 'module') return selection.scenarioId;
  if (kind === 'level') return selection.moduleId;
  if (kind === 'option') return selection.levelId;
  return null;
}

/**
 * Why an item of this kind cannot be created yet (the message key), or null when it can: a module
 * needs a scenario, a level a module, an option a level.
 */
export function missingParent(
  kind: ContentKind,
  selection: ContentSelection,
): 'selectScenarioFirst' | 'selectModuleFirst' | 'selectLevelFirst' | null {
  if (kind === 'scenario' || parentOf(kind, selection)) return null;
  if (kind === 'module') return 'selectScenarioFirst';
  if (kind === 'level') return 'selectModuleFirst';
  return 'selectLevelFirst';
}

/** What the selection is checked against: the chosen scenario's modules and their levels. */
export interface SelectionTree {
  modules: Array<{ id: string; levels: Array<{ id: string }> }>;
}

/**
 * The selection with what no longer exists taken out: no scenario when it is gone (`null`), no
 * module that is not the scenario's, no level that is not the module's (a link may be old).
 */
export function validSelection(
  selection: ContentSelection,
  tree: SelectionTree | null,
): ContentSelection {
  if (!selection.scenarioId) return emptySelection;
  if (!tree) return emptySelection;
  if (!selection.moduleId) return selection.levelId ? { ...selection, levelId: null } : selection;
  const module = tree.modules.find((m) => m.id === selection.moduleId);
  if (!module) return { ...selection, moduleId: null, levelId: null };
  if (selection.levelId && !module.levels.some((l) => l.id === selection.levelId)) {
    return { ...selection, levelId: null };
  }
  return selection;
}

/** The next free order index (from 0) or level number (from 1). */
export function nextNumber(values: number[], start: number) {
  return values.length ? Math.max(...values) + 1 : start;
}

/** The chosen scenario's tree with the numbers a new item's number follows. */
export interface NumberedTree {
  modules: Array<{
    id: string;
    order_index: number;
    levels: Array<{ id: string; level_number: number; options: Array<{ order_index: number }> }>;
  }>;
}

/**
 * A new item's number: the next free one among all of its parent's children (the whole scenario
 * is at hand); none for a scenario, or while the tree is not known.
 */
export function nextFreeNumber(
  kind: ContentKind,
  selection: ContentSelection,
  tree: NumberedTree | undefined,
): number | undefined {
  const module = tree?.modules.find((m) => m.id === selection.moduleId);
  const level = module?.levels.find((l) => l.id === selection.levelId);
  if (kind === 'module' && tree)
    return nextNumber(
      tree.modules.map((m) => m.order_index),
      0,
    );
  if (kind === 'level' && module)
    return nextNumber(
      module.levels.map((l) => l.level_number),
      1,
    );
  if (kind === 'option' && level)
    return nextNumber(
      level.options.map((o) => o.order_index),
      0,
    );
  return undefined;
}

/** The selection without the deleted items (`gone`): a deleted parent takes its children along. */
export function dropDeleted(
  selection: ContentSelection,
  gone: ReadonlySet<string>,
): ContentSelection {
  if (selection.scenarioId && gone.has(selection.scenarioId)) return emptySelection;
  if (selection.moduleId && gone.has(selection.moduleId)) {
    return { ...selection, moduleId: null, levelId: null };
  }
  if (selection.levelId && gone.has(selection.levelId)) return { ...selection, levelId: null };
  return selection;
}
