import { useEffect, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf, errorText } from '../../../lib/error-text';
import { notifySuccess } from '../../../lib/notify';
import { useStartSession } from '../../../api/sessions';
import {
  chosenVrUserName,
  firstIncompleteStep,
  type WizardAction,
  type WizardState,
} from '../wizard';
import type { WizardToast } from './useWizardToast';

/**
 * Starting the session the wizard describes: back to the first incomplete step if any; on a
 * headset the server refuses (taken or switched off meanwhile), back to the headset step with the
 * reason (`deviceNotice`), which choosing another headset clears.
 */
export function useWizardStart({
  state,
  dispatch,
  toast,
  onStarted,
  onDeviceRefused,
}: {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
  toast: WizardToast;
  onStarted: () => void;
  /** The waiting headsets are read again. */
  onDeviceRefused: () => void;
}) {
  const { t } = useTranslation();
  const start = useStartSession();
  const [deviceNotice, setDeviceNotice] = useState<string>();

  // Choosing another headset answers the notice.
  useEffect(() => {
    if (state.deviceId) setDeviceNotice(undefined);
  }, [state.deviceId]);

  async function startSession() {
    const incomplete = firstIncompleteStep(state);
    if (incomplete !== -1) {
      toast.missingChoice(incomplete);
      dispatch({ type: 'goTo', step: incomplete });
      return;
    }
    try {
      await start.mutateAsync({
        device_id: state.deviceId!,
        level_id: state.levelId!,
        vr_user_name: chosenVrUserName(state),
        ...(state.vrUserMode === 'existing' && state.vrUserId
          ? { vr_user_id: state.vrUserId }
          : {}),
        selected_options: state.optionIds,
      });
      toast.clear();
      notifySuccess(t('sessions:started'));
      setDeviceNotice(undefined);
      dispatch({ type: 'reset' });
      onStarted();
    } catch (error) {
      const reason = errorText(error, t('common:error'));
      if (errorCodeOf(error, ['device_busy', 'device_not_waiting'])) {
        // Said once, where the user now is (an alert, read out by screen readers too).
        toast.clear();
        setDeviceNotice(t('sessions:wizard.deviceRefused', { reason }));
        dispatch({ type: 'deviceRefused' });
        onDeviceRefused();
      } else {
        toast.error(reason);
      }
    }
  }

  return { startSession, starting: start.isPending, deviceNotice };
}
