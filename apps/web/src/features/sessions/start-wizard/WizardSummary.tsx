import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { Device, ScenarioTree, ScenarioTreeLevel, ScenarioTreeModule } from '@vrtc/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentText, type ContentText } from '../../../lib/content-text';
import { chosenVrUserName, WIZARD_STEPS, type WizardState } from '../wizard';

/** What the wizard's state points at: the waiting headsets, the scenarios, the chosen content. */
export interface Choices {
  devices: Device[];
  scenarios: ScenarioTree[];
  scenario?: ScenarioTree;
  module?: ScenarioTreeModule;
  level?: ScenarioTreeLevel;
}

/** The choice made at a step, as a short text (the narrow stepper shows it under the step). */
export function stepSummary(
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

/** Every choice of the wizard, beside the options of the last step. */
export function WizardSummary({ state, choices }: { state: WizardState; choices: Choices }) {
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
