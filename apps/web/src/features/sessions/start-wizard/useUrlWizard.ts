import { useCallback, useMemo, useRef, useState, type Dispatch } from 'react';
import { useAuth } from '../../../auth/AuthProvider';
import { oneOf, useUrlParam } from '../../../lib/list-state';
import {
  firstIncompleteStep,
  initialWizardState,
  WIZARD_STEPS,
  wizardReducer,
  type WizardAction,
  type WizardState,
} from '../wizard';

const isWizardStep = oneOf(WIZARD_STEPS);

/** This tab's choices so far, per account: a reload keeps them, another tab or account does not. */
const storageKey = (accountId: string | undefined) => `vrtc:start-wizard:${accountId ?? ''}`;

function restoreChoices(key: string): WizardState {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Partial<WizardState> | null;
    if (!kept || typeof kept !== 'object') return initialWizardState;
    const choices = { ...initialWizardState };
    for (const name of Object.keys(initialWizardState) as Array<keyof WizardState>) {
      const value = kept[name];
      const expected = initialWizardState[name];
      const sameKind = Array.isArray(expected)
        ? Array.isArray(value)
        : expected === null || typeof value === typeof expected;
      if (value !== undefined && sameKind) Object.assign(choices, { [name]: value });
    }
    return choices;
  } catch {
    return initialWizardState;
  }
}

function keepChoices(key: string, state: WizardState) {
  try {
    if (state === initialWizardState) {
      sessionStorage.removeItem(key);
    } else {
      sessionStorage.setItem(key, JSON.stringify(state));
    }
  } catch {
    // Storage refused (private mode, full): the choices live as long as the page.
  }
}

/**
 * The start wizard's state, its step kept in the URL (`?step=device`, none for the first): every
 * step moved to is a history entry, so the browser's Back goes to the previous step, and a reload
 * stays on the step with the choices made so far (kept in this tab's session storage). A step
 * whose earlier choices are missing (a link opened elsewhere, a choice since gone) shows the first
 * step that lacks one instead, and starting checks every step again (wizard.ts).
 */
export function useUrlWizard(): [state: WizardState, dispatch: Dispatch<WizardAction>] {
  const [stepName, setStepName] = useUrlParam('step', isWizardStep, WIZARD_STEPS[0]);
  const key = storageKey(useAuth().state.user?.id);
  const [held, setHeld] = useState(() => restoreChoices(key));
  const asked = WIZARD_STEPS.indexOf(stepName);
  const missing = asked > 0 ? firstIncompleteStep(held, asked - 1) : -1;
  const step = missing === -1 ? asked : missing;
  const state = useMemo(() => ({ ...held, step }), [held, step]);
  // Actions in one event build on each other, as a reducer's would.
  const latest = useRef(state);
  latest.current = state;
  const dispatch = useCallback(
    (action: WizardAction) => {
      const next = wizardReducer(latest.current, action);
      latest.current = next;
      setHeld(next);
      keepChoices(key, action.type === 'reset' ? initialWizardState : next);
      if (next.step !== asked) setStepName(WIZARD_STEPS[next.step]!);
    },
    [asked, key, setStepName],
  );
  return [state, dispatch];
}
