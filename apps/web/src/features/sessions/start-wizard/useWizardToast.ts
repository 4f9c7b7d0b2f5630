import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, notifyError } from '../../../lib/notify';
import { stepError, type StepErrorKey, type WizardState } from '../wizard';

/**
 * The wizard's error toast: one at a time (a new one replaces the last), and a missing choice's
 * message goes away as soon as that choice is made, rather than lingering for its five seconds.
 */
export function useWizardToast(state: WizardState) {
  const { t } = useTranslation();
  const slot = `session-wizard-${useId()}`;
  // The missing choice the shown toast is about, if it is about one.
  const [shown, setShown] = useState<{ step: number; key: StepErrorKey } | null>(null);

  useEffect(() => {
    if (shown && stepError(state, shown.step) !== shown.key) {
      dismissToast(slot);
      setShown(null);
    }
  }, [state, shown, slot]);
  useEffect(() => () => dismissToast(slot), [slot]);

  return {
    /** Says what `step` still lacks. */
    missingChoice(step: number) {
      const key = stepError(state, step);
      if (!key) return;
      notifyError(t(key), { slot });
      setShown({ step, key });
    },
    /** Says any other error (a refused start). */
    error(message: string) {
      notifyError(message, { slot });
      setShown(null);
    },
    clear() {
      dismissToast(slot);
      setShown(null);
    },
  };
}

export type WizardToast = ReturnType<typeof useWizardToast>;
