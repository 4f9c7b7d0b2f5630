import type { ContentKind } from './api';

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
