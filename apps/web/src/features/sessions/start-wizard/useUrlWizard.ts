import { useCallback, useMemo, useRef, useState, type Dispatch } from 'react';
import { oneOf, useUrlParam } from '../../../lib/list-state';
import {
  initialWizardState,
  WIZARD_STEPS,
  wizardReducer,
  type WizardAction,
  type WizardState,
} from '../wizard';

const isWizardStep = oneOf(WIZARD_STEPS);

/**
 * The start wizard's state, its step kept in the URL (`?step=device`, none for the first): every
 * step moved to is a history entry, so the browser's Back goes to the previous step and a reload
 * stays on the step. The choices are the reducer's (wizard.ts), held by the page; starting checks
 * every step before it, so a step opened from a link with earlier choices missing sends back to them.
 */
export function useUrlWizard(): [state: WizardState, dispatch: Dispatch<WizardAction>] {
  const [stepName, setStepName] = useUrlParam('step', isWizardStep, WIZARD_STEPS[0]);
  const [held, setHeld] = useState(initialWizardState);
  const step = WIZARD_STEPS.indexOf(stepName);
  const state = useMemo(() => ({ ...held, step }), [held, step]);
  // Actions in one event build on each other, as a reducer's would.
  const latest = useRef(state);
  latest.current = state;
  const dispatch = useCallback(
    (action: WizardAction) => {
      const next = wizardReducer(latest.current, action);
      latest.current = next;
      setHeld(next);
      if (next.step !== step) setStepName(WIZARD_STEPS[next.step]!);
    },
    [step, setStepName],
  );
  return [state, dispatch];
}
