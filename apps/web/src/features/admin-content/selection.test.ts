import { describe, expect, it } from 'vitest';
import {
  dropDeleted,
  emptySelection,
  missingParent,
  nextNumber,
  parentOf,
  selectLevel,
  selectModule,
  selectScenario,
  validSelection,
} from './selection';

describe('content parent selection', () => {
  it('needs a scenario for a module, a module for a level and a level for an option', () => {
    expect(missingParent('scenario', emptySelection)).toBeNull();
    expect(missingParent('module', emptySelection)).toBe('selectScenarioFirst');
    expect(missingParent('level', { ...emptySelection, scenarioId: 's' })).toBe(
      'selectModuleFirst',
    );
    expect(missingParent('option', { scenarioId: 's', moduleId: 'm', levelId: null })).toBe(
      'selectLevelFirst',
    );

    const full = { scenarioId: 's', moduleId: 'm', levelId: 'l' };
    expect(missingParent('module', full)).toBeNull();
    expect(missingParent('level', full)).toBeNull();
    expect(missingParent('option', full)).toBeNull();
    expect([parentOf('module', full), parentOf('level', full), parentOf('option', full)]).toEqual([
      's',
      'm',
      'l',
    ]);
  });

  it('clears the module and level when the scenario changes, and the level when the module changes', () => {
    const full = { scenarioId: 's', moduleId: 'm', levelId: 'l' };
    expect(selectScenario(full, 's2')).toEqual({ scenarioId: 's2', moduleId: null, levelId: null });
    expect(selectModule(full, 'm2')).toEqual({ scenarioId: 's', moduleId: 'm2', levelId: null });
    expect(selectLevel(full, 'l2')).toEqual({ scenarioId: 's', moduleId: 'm', levelId: 'l2' });
  });

  it('drops from a selection (a link, say) what no longer exists', () => {
    const tree = {
      modules: [
        { id: 'm', levels: [{ id: 'l' }] },
        { id: 'm2', levels: [] },
      ],
    };
    const full = { scenarioId: 's', moduleId: 'm', levelId: 'l' };
    expect(validSelection(full, tree)).toBe(full);
    expect(validSelection(full, null)).toEqual(emptySelection);
    expect(validSelection({ ...full, moduleId: 'gone' }, tree)).toEqual({
      scenarioId: 's',
      moduleId: null,
      levelId: null,
    });
    expect(validSelection({ ...full, moduleId: 'm2' }, tree)).toEqual({
      scenarioId: 's',
      moduleId: 'm2',
      levelId: null,
    });
    expect(validSelection({ scenarioId: 's', moduleId: null, levelId: null }, tree)).toEqual({
      scenarioId: 's',
      moduleId: null,
      levelId: null,
    });
  });

  it('numbers a new item after the highest one', () => {
    expect(nextNumber([], 0)).toBe(0);
    expect(nextNumber([], 1)).toBe(1);
    expect(nextNumber([3, 1, 7], 1)).toBe(8);
  });
});

describe('a deleted item leaves the selection', () => {
  const chosen = { scenarioId: 's1', moduleId: 'm1', levelId: 'l1' };
  it('with whatever stood under it', () => {
    expect(dropDeleted(chosen, new Set(['s1', 'm1']))).toEqual(emptySelection);
    expect(dropDeleted(chosen, new Set(['m1', 'l1']))).toEqual({
      scenarioId: 's1',
      moduleId: null,
      levelId: null,
    });
    expect(dropDeleted(chosen, new Set(['l1']))).toEqual({ ...chosen, levelId: null });
    expect(dropDeleted(chosen, new Set(['other']))).toBe(chosen);
  });
});
