import { describe, expect, it } from 'vitest';
import {
  emptySelection,
  missingParent,
  parentOf,
  selectLevel,
  selectModule,
  selectScenario,
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
});
