import { describe, expect, it } from 'vitest';
import {
  chosenVrUserName,
  firstIncompleteStep,
  initialWizardState,
  LAST_STEP,
  stepError,
  WIZARD_STEPS,
  wizardReducer,
  type WizardAction,
  type WizardState,
} from './wizard';

const run = (actions: WizardAction[], state: WizardState = initialWizardState) =>
  actions.reduce(wizardReducer, state);

/** A wizard with every choice made, standing on the options step. */
const complete = run([
  { type: 'selectVrUser', user: { id: 'user-1', name: 'Ivan' } },
  { type: 'next' },
  { type: 'selectDevice', id: 'device-1' },
  { type: 'next' },
  { type: 'selectScenario', id: 'scenario-1' },
  { type: 'next' },
  { type: 'selectModule', id: 'module-1' },
  { type: 'next' },
  { type: 'selectLevel', id: 'level-1' },
  { type: 'next' },
  { type: 'setOptions', ids: ['option-1', 'option-2'] },
]);

describe('session start wizard', () => {
  it('walks through six steps when every step has its selection', () => {
    expect(complete.step).toBe(5);
    expect(LAST_STEP).toBe(5);
    expect(complete).toMatchObject({
      vrUserId: 'user-1',
      vrUserName: 'Ivan',
      deviceId: 'device-1',
      scenarioId: 'scenario-1',
      moduleId: 'module-1',
      levelId: 'level-1',
      optionIds: ['option-1', 'option-2'],
    });
    expect(firstIncompleteStep(complete)).toBe(-1);
    // Next on the last step stays there (the last step starts the session instead).
    expect(wizardReducer(complete, { type: 'next' }).step).toBe(5);
  });

  it('changing the scenario clears module, level and options', () => {
    const state = wizardReducer(complete, { type: 'selectScenario', id: 'scenario-2' });
    expect(state).toMatchObject({
      scenarioId: 'scenario-2',
      moduleId: null,
      levelId: null,
      optionIds: [],
    });
    expect(state).toMatchObject({ vrUserId: 'user-1', deviceId: 'device-1' });
  });

  it('changing the module clears level and options, keeping the scenario', () => {
    const state = wizardReducer(complete, { type: 'selectModule', id: 'module-2' });
    expect(state).toMatchObject({
      scenarioId: 'scenario-1',
      moduleId: 'module-2',
      levelId: null,
      optionIds: [],
    });
  });

  it('changing the level clears the options only', () => {
    const state = wizardReducer(complete, { type: 'selectLevel', id: 'level-2' });
    expect(state).toMatchObject({ moduleId: 'module-1', levelId: 'level-2', optionIds: [] });
  });

  it('choosing the same scenario, module or level again keeps what depends on it', () => {
    expect(wizardReducer(complete, { type: 'selectScenario', id: 'scenario-1' })).toBe(complete);
    expect(wizardReducer(complete, { type: 'selectModule', id: 'module-1' })).toBe(complete);
    expect(wizardReducer(complete, { type: 'selectLevel', id: 'level-1' })).toBe(complete);
  });

  it('does not advance past a step without its selection, and names the missing one', () => {
    expect(stepError(initialWizardState)).toBe('sessions:wizard.errors.vrUser');
    expect(wizardReducer(initialWizardState, { type: 'next' }).step).toBe(0);

    const onDevice = run([
      { type: 'selectVrUser', user: { id: 'user-1', name: 'Ivan' } },
      { type: 'next' },
    ]);
    expect(onDevice.step).toBe(1);
    expect(stepError(onDevice)).toBe('sessions:wizard.errors.device');
    expect(wizardReducer(onDevice, { type: 'next' }).step).toBe(1);

    const onScenario = run([{ type: 'selectDevice', id: 'd' }, { type: 'next' }], onDevice);
    expect(stepError(onScenario)).toBe('sessions:wizard.errors.scenario');
    const onModule = run([{ type: 'selectScenario', id: 's' }, { type: 'next' }], onScenario);
    expect(stepError(onModule)).toBe('sessions:wizard.errors.module');
    const onLevel = run([{ type: 'selectModule', id: 'm' }, { type: 'next' }], onModule);
    expect(stepError(onLevel)).toBe('sessions:wizard.errors.level');
    const onOptions = run([{ type: 'selectLevel', id: 'l' }, { type: 'next' }], onLevel);
    expect(onOptions.step).toBe(5);
    // Options are optional.
    expect(stepError(onOptions)).toBeNull();
  });

  it('accepts a new VR user by name, but not a blank one', () => {
    const typed = run([
      { type: 'setVrUserMode', mode: 'new' },
      { type: 'setNewVrUserName', name: '   ' },
    ]);
    expect(stepError(typed)).toBe('sessions:wizard.errors.vrUserName');
    expect(wizardReducer(typed, { type: 'next' }).step).toBe(0);

    const named = wizardReducer(typed, { type: 'setNewVrUserName', name: '  Anna Petrova ' });
    expect(stepError(named)).toBeNull();
    expect(wizardReducer(named, { type: 'next' }).step).toBe(1);
    expect(chosenVrUserName(named)).toBe('Anna Petrova');
  });

  it('uses the picked VR user name in existing mode, and forgets it when the pick is cleared', () => {
    expect(chosenVrUserName(complete)).toBe('Ivan');
    const cleared = wizardReducer(complete, { type: 'selectVrUser', user: null });
    expect(cleared).toMatchObject({ vrUserId: null, vrUserName: '' });
    expect(chosenVrUserName(cleared)).toBe('');
    expect(firstIncompleteStep(cleared)).toBe(0);
  });

  it('goes back freely, but forward only over complete steps', () => {
    expect(wizardReducer(complete, { type: 'back' }).step).toBe(4);
    expect(wizardReducer(initialWizardState, { type: 'back' }).step).toBe(0);
    expect(wizardReducer(complete, { type: 'goTo', step: 1 }).step).toBe(1);

    const cleared = wizardReducer(wizardReducer(complete, { type: 'goTo', step: 2 }), {
      type: 'selectScenario',
      id: 'scenario-2',
    });
    expect(wizardReducer(cleared, { type: 'goTo', step: 5 }).step).toBe(2);
    expect(firstIncompleteStep(cleared)).toBe(3);
  });

  it('losing the device makes the device step incomplete again', () => {
    const state = wizardReducer(complete, { type: 'selectDevice', id: null });
    expect(firstIncompleteStep(state)).toBe(1);
    expect(stepError(state, 1)).toBe('sessions:wizard.errors.device');
  });

  it('reset returns to step 1 with every selection cleared', () => {
    expect(wizardReducer(complete, { type: 'reset' })).toEqual(initialWizardState);
    expect(initialWizardState).toMatchObject({
      step: 0,
      vrUserId: null,
      deviceId: null,
      optionIds: [],
    });
  });
});

describe('a headset the server refuses', () => {
  it('clears the headset and goes back to its step, keeping every other choice', () => {
    const chosen: WizardState = {
      ...initialWizardState,
      step: LAST_STEP,
      vrUserId: 'u1',
      vrUserName: 'Anna',
      deviceId: 'd1',
      scenarioId: 's1',
      moduleId: 'm1',
      levelId: 'l1',
      optionIds: ['o1'],
    };
    expect(wizardReducer(chosen, { type: 'deviceRefused' })).toEqual({
      ...chosen,
      step: WIZARD_STEPS.indexOf('device'),
      deviceId: null,
    });
  });
});
