import { Card, Stack, Stepper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { LIST_MAX_LIMIT } from '@vrtc/contract';
import { useEffect, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceList } from '../../api/devices';
import { useScenarioTree } from '../../api/scenarios';
import { QueryState } from '../../components/QueryState';
import { useContentText } from '../../lib/content-text';
import { LevelStep, ModuleStep, OptionsStep, ScenarioStep } from './start-wizard/ContentSteps';
import { DeviceStep } from './start-wizard/DeviceStep';
import { VrUserStep } from './start-wizard/VrUserStep';
import { WizardNav } from './start-wizard/WizardNav';
import { useWizardStart } from './start-wizard/useWizardStart';
import { useWizardToast } from './start-wizard/useWizardToast';
import { stepSummary, type Choices } from './start-wizard/WizardSummary';
import { LAST_STEP, stepError, WIZARD_STEPS, type WizardAction, type WizardState } from './wizard';

/**
 * The six-step wizard that starts a session. Its rules are the reducer's (wizard.ts); each step is
 * its own component (start-wizard/); this one holds what they share: the waiting headsets, the
 * scenarios, the stepper, Back and Next (starting is useWizardStart's).
 */
export function StartSessionWizard({
  state,
  dispatch,
  onStarted,
}: {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
  onStarted: () => void;
}) {
  const { t } = useTranslation();
  const content = useContentText();
  // A phone has no room for six steps side by side: they stand one under the other.
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  // Every waiting headset (as many as one answer holds), kept current.
  const devices = useDeviceList(
    { status: 'waiting', limit: LIST_MAX_LIMIT, sort: 'name' },
    { poll: true },
  );
  const scenarios = useScenarioTree();
  const toast = useWizardToast(state);
  const { startSession, starting, deviceNotice } = useWizardStart({
    state,
    dispatch,
    toast,
    onStarted,
    onDeviceRefused: () => void devices.refetch(),
  });

  const scenario = scenarios.data?.find((item) => item.id === state.scenarioId);
  const module = scenario?.modules.find((item) => item.id === state.moduleId);
  const level = module?.levels.find((item) => item.id === state.levelId);
  const choices: Choices = {
    devices: devices.data?.devices ?? [],
    scenarios: scenarios.data ?? [],
    scenario,
    module,
    level,
  };

  // A chosen headset that stops waiting (taken, switched off) can no longer be chosen.
  const waitingIds = devices.isSuccess
    ? devices.data.devices.map((device) => device.id).join(',')
    : undefined;
  useEffect(() => {
    if (
      waitingIds !== undefined &&
      state.deviceId &&
      !waitingIds.split(',').includes(state.deviceId)
    ) {
      dispatch({ type: 'selectDevice', id: null });
    }
  }, [waitingIds, state.deviceId, dispatch]);

  function next() {
    if (stepError(state)) {
      toast.missingChoice(state.step);
      return;
    }
    dispatch({ type: 'next' });
  }

  const stepName = WIZARD_STEPS[state.step]!;
  const step = { state, dispatch };

  return (
    <Card withBorder radius="lg" p="lg">
      <Stepper
        active={state.step}
        onStepClick={(index) => dispatch({ type: 'goTo', step: index })}
        allowNextStepsSelect={false}
        orientation={narrow ? 'vertical' : 'horizontal'}
        size="sm"
        wrap
        mb="xl"
      >
        {WIZARD_STEPS.map((name, index) => (
          <Stepper.Step
            key={name}
            label={t(`sessions:wizard.steps.${name}`)}
            // Each step shows its choice: in full one under the other, cut short side by side.
            description={
              <StepChoice
                name={name}
                choice={stepSummary(index, state, choices, content)}
                narrow={narrow}
              />
            }
          />
        ))}
      </Stepper>

      <Stack gap="md" mih={220}>
        <Text c="dimmed" size="sm" data-testid="step-prompt">
          {t(`sessions:wizard.prompts.${stepName}`)}
        </Text>
        {stepName === 'vrUser' ? (
          <VrUserStep {...step} />
        ) : stepName === 'device' ? (
          <DeviceStep devices={devices} notice={deviceNotice} {...step} />
        ) : (
          <QueryState
            isPending={scenarios.isPending}
            error={scenarios.error}
            onRetry={() => scenarios.refetch()}
          >
            {stepName === 'scenario' ? (
              <ScenarioStep scenarios={choices.scenarios} {...step} />
            ) : stepName === 'module' ? (
              <ModuleStep scenario={scenario} {...step} />
            ) : stepName === 'level' ? (
              <LevelStep module={module} {...step} />
            ) : (
              <OptionsStep choices={choices} {...step} />
            )}
          </QueryState>
        )}
      </Stack>

      <WizardNav
        first={state.step === 0}
        last={state.step === LAST_STEP}
        starting={starting}
        onBack={() => dispatch({ type: 'back' })}
        onNext={next}
        onStart={startSession}
      />
    </Card>
  );
}

/** A step's choice under its name; side by side on a laptop, cut to a line (in full on hover). */
function StepChoice({
  name,
  choice,
  narrow,
}: {
  name: string;
  choice: string | undefined;
  narrow: boolean;
}) {
  if (!choice) return null;
  return (
    <Text
      span
      size="xs"
      c="dimmed"
      title={choice}
      data-testid={`step-choice-${name}`}
      style={
        narrow
          ? { display: 'block', overflowWrap: 'anywhere' }
          : {
              display: 'block',
              maxWidth: 140,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }
      }
    >
      {choice}
    </Text>
  );
}
