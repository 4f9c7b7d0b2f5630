/**
 * The Start tab's six-step wizard as a pure reducer: VR user, device, scenario, module, level,
 * options. Changing a choice clears every choice that depends on it; a step cannot be left
 * forward without its selection (options are optional).
 */

export const WIZARD_STEPS = ['vrUser', 'device', 'scenario', 'module', 'level', 'options'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];
export const LAST_STEP = WIZARD_STEPS.length - 1;
export const DEVICE_STEP = WIZARD_STEPS.indexOf('device');

export type VrUserMode = 'existing' | 'new';

export interface WizardState {
  /** Index into WIZARD_STEPS. */
  step: number;
  vrUserMode: VrUserMode;
  /** The picked existing VR user (mode 'existing'), with the name it was picked by. */
  vrUserId: string | null;
  vrUserName: string;
  /** The typed name of a new VR user (mode 'new'). */
  newVrUserName: string;
  deviceId: string | null;
  scenarioId: string | null;
  moduleId: string | null;
  levelId: string | null;
  optionIds: string[];
}

export type WizardAction =
  | { type: 'setVrUserMode'; mode: VrUserMode }
  | { type: 'selectVrUser'; user: { id: string; name: string } | null }
  | { type: 'setNewVrUserName'; name: string }
  | { type: 'selectDevice'; id: string | null }
  | { type: 'selectScenario'; id: string | null }
  | { type: 'selectModule'; id: string | null }
  | { type: 'selectLevel'; id: string | null }
  | { type: 'setOptions'; ids: string[] }
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'goTo'; step: number }
  /** The server refused the chosen headset (busy, not waiting): choose another. */
  | { type: 'deviceRefused' }
  | { type: 'reset' };

export const initialWizardState: WizardState = {
  step: 0,
  vrUserMode: 'existing',
  vrUserId: null,
  vrUserName: '',
  newVrUserName: '',
  deviceId: null,
  scenarioId: null,
  moduleId: null,
  levelId: null,
  optionIds: [],
};

/** The i18n key (namespace sessions) of the prompt a step shows when left without a selection. */
export type StepErrorKey =
  | 'sessions:wizard.errors.vrUser'
  | 'sessions:wizard.errors.vrUserName'
  | 'sessions:wizard.errors.device'
  | 'sessions:wizard.errors.scenario'
  | 'sessions:wizard.errors.module'
  | 'sessions:wizard.errors.level';

/** Why the given step cannot be left forward, or null when it can. */
export function stepError(state: WizardState, step: number = state.step): StepErrorKey | null {
  switch (WIZARD_STEPS[step]) {
    case 'vrUser':
      if (state.vrUserMode === 'existing')
        return state.vrUserId ? null : 'sessions:wizard.errors.vrUser';
      return state.newVrUserName.trim() ? null : 'sessions:wizard.errors.vrUserName';
    case 'device':
      return state.deviceId ? null : 'sessions:wizard.errors.device';
    case 'scenario':
      return state.scenarioId ? null : 'sessions:wizard.errors.scenario';
    case 'module':
      return state.moduleId ? null : 'sessions:wizard.errors.module';
    case 'level':
      return state.levelId ? null : 'sessions:wizard.errors.level';
    default:
      return null; // options are optional
  }
}

/** The first step (up to and including `upTo`) that still lacks its selection, or -1. */
export function firstIncompleteStep(state: WizardState, upTo: number = LAST_STEP): number {
  for (let step = 0; step <= upTo; step += 1) {
    if (stepError(state, step)) return step;
  }
  return -1;
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'setVrUserMode':
      return { ...state, vrUserMode: action.mode };
    case 'selectVrUser':
      return { ...state, vrUserId: action.user?.id ?? null, vrUserName: action.user?.name ?? '' };
    case 'setNewVrUserName':
      return { ...state, newVrUserName: action.name };
    case 'selectDevice':
      return { ...state, deviceId: action.id };
    case 'selectScenario':
      if (action.id === state.scenarioId) return state;
      return { ...state, scenarioId: action.id, moduleId: null, levelId: null, optionIds: [] };
    case 'selectModule':
      if (action.id === state.moduleId) return state;
      return { ...state, moduleId: action.id, levelId: null, optionIds: [] };
    case 'selectLevel':
      if (action.id === state.levelId) return state;
      return { ...state, levelId: action.id, optionIds: [] };
    case 'setOptions':
      return { ...state, optionIds: [...new Set(action.ids)] };
    case 'next':
      if (state.step >= LAST_STEP || stepError(state)) return state;
      return { ...state, step: state.step + 1 };
    case 'back':
      return state.step > 0 ? { ...state, step: state.step - 1 } : state;
    case 'goTo': {
      // Back to any step; forward only across steps that are complete.
      const target = Math.max(0, Math.min(LAST_STEP, action.step));
      if (target <= state.step) return { ...state, step: target };
      const blocked = firstIncompleteStep(state, target - 1);
      return blocked === -1 ? { ...state, step: target } : state;
    }
    case 'deviceRefused':
      return { ...state, deviceId: null, step: DEVICE_STEP };
    case 'reset':
      return initialWizardState;
  }
}

/** The display name of the VR user the session will be started for. */
export function chosenVrUserName(state: WizardState) {
  if (state.vrUserMode === 'new') return state.newVrUserName.trim();
  return state.vrUserId ? state.vrUserName : '';
}
