import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Paper,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
  TextInput,
} from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconInfoCircle, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  LIST_MAX_LIMIT,
  type Device,
  type ScenarioTree,
  type ScenarioTreeLevel,
  type ScenarioTreeModule,
} from '@vrtc/contract';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState, type Dispatch, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useContentText, type ContentText } from '../../lib/content-text';
import { errorCodeOf, errorText } from '../../lib/error-text';
import { useDeviceList } from '../../api/devices';
import { useScenarioTree } from '../../api/scenarios';
import { vrUserOptions } from '../../api/vr-users';
import { QueryState } from '../../components/QueryState';
import { ServerSelect } from '../../components/ServerSelect';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useStartSession } from './api';
import {
  chosenVrUserName,
  firstIncompleteStep,
  LAST_STEP,
  stepError,
  WIZARD_STEPS,
  type WizardAction,
  type WizardState,
} from './wizard';

interface Choices {
  devices: Device[];
  scenarios: ScenarioTree[];
  scenario?: ScenarioTree;
  module?: ScenarioTreeModule;
  level?: ScenarioTreeLevel;
}

/** One selectable card of a list of choices (devices, scenarios, modules, levels). */
function ChoiceCards<T extends { id: string }>({
  label,
  items,
  value,
  onChange,
  render,
}: {
  label: string;
  items: T[];
  value: string | null;
  onChange: (id: string) => void;
  render: (item: T) => ReactNode;
}) {
  return (
    <Radio.Group label={label} value={value} onChange={onChange}>
      <SimpleGrid type="container" cols={{ base: 1, '520px': 2, '900px': 3 }} spacing="sm" mt="xs">
        {items.map((item) => (
          <Radio.Card key={item.id} value={item.id} radius="md" p="md" withBorder>
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator mt={2} />
              <Stack gap={2} style={{ minWidth: 0 }}>
                {render(item)}
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}

/** What a choice card shows: its title, its description if any, and one dimmed fact. */
function ChoiceBody({
  title,
  description,
  note,
}: {
  title: string;
  description: string;
  note: string;
}) {
  return (
    <>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {description ? (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {description}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Alert variant="light" color="gray" icon={<IconInfoCircle />}>
      {children}
    </Alert>
  );
}

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
  // Why the headset step is showing again (the server refused the chosen headset).
  const [deviceNotice, setDeviceNotice] = useState<string>();
  // Every waiting headset (as many as one answer holds), refreshed every 5 s.
  const devices = useDeviceList(
    { status: 'waiting', limit: LIST_MAX_LIMIT, sort: 'name' },
    { poll: true },
  );
  const scenarios = useScenarioTree();
  const start = useStartSession();

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
    const error = stepError(state);
    if (error) {
      notifyError(t(error));
      return;
    }
    dispatch({ type: 'next' });
  }

  async function startSession() {
    const incomplete = firstIncompleteStep(state);
    if (incomplete !== -1) {
      notifyError(t(stepError(state, incomplete)!));
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
      notifySuccess(t('sessions:started'));
      setDeviceNotice(undefined);
      dispatch({ type: 'reset' });
      onStarted();
    } catch (error) {
      const reason = errorText(error, t('common:error'));
      if (errorCodeOf(error, ['device_busy', 'device_not_waiting'])) {
        // The headset was taken or switched off meanwhile: back to the headsets that wait now.
        // Said once, where the user now is (an alert, read out by screen readers too).
        setDeviceNotice(t('sessions:wizard.deviceRefused', { reason }));
        dispatch({ type: 'deviceRefused' });
        void devices.refetch();
      } else {
        notifyError(reason);
      }
    }
  }

  // Choosing another headset answers the notice.
  useEffect(() => {
    if (state.deviceId) setDeviceNotice(undefined);
  }, [state.deviceId]);

  const stepName = WIZARD_STEPS[state.step]!;
  const isLast = state.step === LAST_STEP;

  return (
    <Card withBorder radius="lg" p="lg">
      <Stepper
        active={state.step}
        onStepClick={(step) => dispatch({ type: 'goTo', step })}
        allowNextStepsSelect={false}
        orientation={narrow ? 'vertical' : 'horizontal'}
        size="sm"
        wrap
        mb="xl"
      >
        {WIZARD_STEPS.map((step, index) => (
          <Stepper.Step
            key={step}
            label={t(`sessions:wizard.steps.${step}`)}
            // Standing one under the other, each step shows its choice.
            description={narrow ? stepSummary(index, state, choices, content) : undefined}
          />
        ))}
      </Stepper>

      <Stack gap="md" mih={220}>
        <Text c="dimmed" size="sm" data-testid="step-prompt">
          {t(`sessions:wizard.prompts.${stepName}`)}
        </Text>
        {stepName === 'vrUser' ? (
          <VrUserStep state={state} dispatch={dispatch} />
        ) : stepName === 'device' ? (
          <QueryState
            isPending={devices.isPending}
            error={devices.data ? null : devices.error}
            onRetry={() => devices.refetch()}
          >
            {deviceNotice ? (
              <Alert color="red" variant="light" icon={<IconInfoCircle />} role="alert">
                {deviceNotice}
              </Alert>
            ) : null}
            {choices.devices.length === 0 ? (
              <Empty>
                <Stack gap={4}>
                  <Text size="sm">{t('sessions:wizard.noWaitingDevices')}</Text>
                  <Anchor component={Link} to="/devices" size="sm">
                    {t('sessions:wizard.goToDevices')}
                  </Anchor>
                </Stack>
              </Empty>
            ) : (
              <ChoiceCards
                label={t('sessions:wizard.steps.device')}
                items={choices.devices}
                value={state.deviceId}
                onChange={(id) => dispatch({ type: 'selectDevice', id })}
                render={(device) => (
                  <>
                    <Text fw={600} size="sm" truncate>
                      {device.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t(`common:deviceType.${device.type}`)}
                      {device.battery_percent !== null
                        ? ` · ${t('sessions:wizard.battery', { percent: device.battery_percent })}`
                        : ''}
                    </Text>
                  </>
                )}
              />
            )}
            <Text size="xs" c="dimmed">
              {t('common:autoRefreshNote')}
            </Text>
          </QueryState>
        ) : (
          <QueryState
            isPending={scenarios.isPending}
            error={scenarios.error}
            onRetry={() => scenarios.refetch()}
          >
            {stepName === 'scenario' ? (
              choices.scenarios.length === 0 ? (
                <Empty>{t('sessions:wizard.noScenarios')}</Empty>
              ) : (
                <ChoiceCards
                  label={t('sessions:wizard.steps.scenario')}
                  items={choices.scenarios}
                  value={state.scenarioId}
                  onChange={(id) => dispatch({ type: 'selectScenario', id })}
                  render={(item) => (
                    <ChoiceBody
                      title={content.name(item)}
                      description={content.description(item)}
                      note={t('sessions:wizard.moduleCount', { count: item.modules.length })}
                    />
                  )}
                />
              )
            ) : stepName === 'module' ? (
              (scenario?.modules.length ?? 0) === 0 ? (
                <Empty>{t('sessions:wizard.noModules')}</Empty>
              ) : (
                <ChoiceCards
                  label={t('sessions:wizard.steps.module')}
                  items={scenario!.modules}
                  value={state.moduleId}
                  onChange={(id) => dispatch({ type: 'selectModule', id })}
                  render={(item) => (
                    <ChoiceBody
                      title={content.name(item)}
                      description={content.description(item)}
                      note={t('sessions:wizard.levelCount', { count: item.levels.length })}
                    />
                  )}
                />
              )
            ) : stepName === 'level' ? (
              (module?.levels.length ?? 0) === 0 ? (
                <Empty>{t('sessions:wizard.noLevels')}</Empty>
              ) : (
                <ChoiceCards
                  label={t('sessions:wizard.steps.level')}
                  items={module!.levels}
                  value={state.levelId}
                  onChange={(id) => dispatch({ type: 'selectLevel', id })}
                  render={(item) => (
                    <ChoiceBody
                      title={t('sessions:wizard.levelTitle', {
                        number: item.level_number,
                        name: content.name(item),
                      })}
                      description={content.description(item)}
                      note={t('sessions:wizard.maxTasks', { count: item.max_tasks })}
                    />
                  )}
                />
              )
            ) : (
              <SimpleGrid type="container" cols={{ base: 1, '720px': 2 }} spacing="lg">
                {(level?.options.length ?? 0) === 0 ? (
                  <Empty>{t('sessions:wizard.noOptions')}</Empty>
                ) : (
                  <Checkbox.Group
                    label={t('sessions:wizard.steps.options')}
                    value={state.optionIds}
                    onChange={(ids) => dispatch({ type: 'setOptions', ids })}
                  >
                    <Stack gap="sm" mt="xs">
                      {level!.options.map((option) => (
                        <Checkbox
                          key={option.id}
                          value={option.id}
                          label={content.name(option)}
                          description={content.description(option) || undefined}
                        />
                      ))}
                    </Stack>
                  </Checkbox.Group>
                )}
                <Summary state={state} choices={choices} />
              </SimpleGrid>
            )}
          </QueryState>
        )}
      </Stack>

      <Group justify="space-between" mt="xl">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
          onClick={() => dispatch({ type: 'back' })}
          disabled={state.step === 0 || start.isPending}
        >
          {t('common:back')}
        </Button>
        {isLast ? (
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            onClick={startSession}
            loading={start.isPending}
          >
            {t('sessions:wizard.start')}
          </Button>
        ) : (
          <Button rightSection={<IconArrowRight size={16} />} onClick={next}>
            {t('common:next')}
          </Button>
        )}
      </Group>
    </Card>
  );
}

function VrUserStep({ state, dispatch }: { state: WizardState; dispatch: Dispatch<WizardAction> }) {
  const { t } = useTranslation();
  // The first VR users by name: the picker's own first answer (one request for both).
  const first = useQuery(vrUserOptions(''));
  return (
    <Stack gap="md" maw={480}>
      <SegmentedControl
        value={state.vrUserMode}
        onChange={(mode) =>
          dispatch({ type: 'setVrUserMode', mode: mode as WizardState['vrUserMode'] })
        }
        aria-label={t('sessions:wizard.vrUserMode')}
        data={[
          { value: 'existing', label: t('sessions:wizard.existingVrUser') },
          { value: 'new', label: t('sessions:wizard.newVrUser') },
        ]}
      />
      {state.vrUserMode === 'existing' ? (
        <>
          <ServerSelect
            label={t('sessions:wizard.vrUser')}
            placeholder={t('sessions:wizard.vrUserPlaceholder')}
            clearable
            required
            nothingFoundMessage={t('sessions:wizard.nothingFound')}
            options={vrUserOptions}
            value={state.vrUserId}
            valueLabel={state.vrUserId ? state.vrUserName : undefined}
            onChange={(_id, option) =>
              dispatch({
                type: 'selectVrUser',
                user: option ? { id: option.value, name: option.label } : null,
              })
            }
            error={first.error ? errorText(first.error, t('common:loadError')) : undefined}
          />
          {first.data?.length === 0 && !first.error ? (
            <Text size="sm" c="dimmed">
              {t('sessions:wizard.noVrUsers')}
            </Text>
          ) : null}
        </>
      ) : (
        <TextInput
          label={t('sessions:wizard.newVrUserName')}
          description={t('sessions:wizard.newVrUserHint')}
          required
          maxLength={200}
          value={state.newVrUserName}
          onChange={(event) =>
            dispatch({ type: 'setNewVrUserName', name: event.currentTarget.value })
          }
        />
      )}
    </Stack>
  );
}

function stepSummary(
  step: number,
  state: WizardState,
  choices: Choices,
  content: ContentText,
): string | undefined {
  const named = (item: { name: string; name_en: string | null } | undefined) =>
    item ? content.name(item) : undefined;
  switch (WIZARD_STEPS[step]) {
    case 'vrUser':
      return chosenVrUserName(state) || undefined;
    case 'device':
      return choices.devices.find((device) => device.id === state.deviceId)?.name;
    case 'scenario':
      return named(choices.scenario);
    case 'module':
      return named(choices.module);
    case 'level':
      return named(choices.level);
    default:
      return undefined;
  }
}

function Summary({ state, choices }: { state: WizardState; choices: Choices }) {
  const { t } = useTranslation();
  const content = useContentText();
  const options = (choices.level?.options ?? []).filter((option) =>
    state.optionIds.includes(option.id),
  );
  const rows: Array<[string, ReactNode]> = [
    [
      t('sessions:wizard.steps.vrUser'),
      <Group gap={6} key="vr" justify="flex-end">
        {chosenVrUserName(state) || t('common:none')}
        {state.vrUserMode === 'new' ? (
          <Badge size="xs" variant="light">
            {t('sessions:wizard.newBadge')}
          </Badge>
        ) : null}
      </Group>,
    ],
    [
      t('sessions:wizard.steps.device'),
      stepSummary(1, state, choices, content) ?? t('common:none'),
    ],
    [
      t('sessions:wizard.steps.scenario'),
      stepSummary(2, state, choices, content) ?? t('common:none'),
    ],
    [
      t('sessions:wizard.steps.module'),
      stepSummary(3, state, choices, content) ?? t('common:none'),
    ],
    [
      t('sessions:wizard.steps.level'),
      choices.level
        ? t('sessions:wizard.levelTitle', {
            number: choices.level.level_number,
            name: content.name(choices.level),
          })
        : t('common:none'),
    ],
    [
      t('sessions:wizard.steps.options'),
      options.length
        ? options.map((option) => content.name(option)).join(', ')
        : t('sessions:wizard.noneSelected'),
    ],
  ];
  return (
    <Paper withBorder radius="md" p="md" bg="gray.0" aria-labelledby="wizard-summary-title">
      <Text fw={600} mb="sm" id="wizard-summary-title">
        {t('sessions:wizard.summary')}
      </Text>
      <Stack gap={8} component="dl" m={0}>
        {rows.map(([label, value]) => (
          <Group key={label} justify="space-between" align="flex-start" gap="md" wrap="nowrap">
            <Text component="dt" size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              {label}
            </Text>
            <Text component="dd" size="sm" fw={500} ta="right" m={0}>
              {value}
            </Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
