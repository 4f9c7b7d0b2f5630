import { Checkbox, SimpleGrid, Stack } from '@mantine/core';
import type { ScenarioTree, ScenarioTreeLevel, ScenarioTreeModule } from '@vrtc/contract';
import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../../lib/content-text';
import type { WizardAction, WizardState } from '../wizard';
import { ChoiceBody, ChoiceCards, Empty } from './ChoiceCards';
import { WizardSummary, type Choices } from './WizardSummary';

/**
 * Steps 3 to 6, each its own component: the scenarios the organisation may use, then the chosen
 * scenario's modules, the chosen module's levels, and the chosen level's options with the summary.
 */

interface StepProps {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
}

export function ScenarioStep({
  scenarios,
  state,
  dispatch,
}: StepProps & { scenarios: ScenarioTree[] }) {
  const { t } = useTranslation();
  const content = useContentText();
  if (scenarios.length === 0) return <Empty>{t('sessions:wizard.noScenarios')}</Empty>;
  return (
    <ChoiceCards
      label={t('sessions:wizard.steps.scenario')}
      items={scenarios}
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
  );
}

export function ModuleStep({ scenario, state, dispatch }: StepProps & { scenario?: ScenarioTree }) {
  const { t } = useTranslation();
  const content = useContentText();
  if (!scenario || scenario.modules.length === 0)
    return <Empty>{t('sessions:wizard.noModules')}</Empty>;
  return (
    <ChoiceCards
      label={t('sessions:wizard.steps.module')}
      items={scenario.modules}
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
  );
}

export function LevelStep({
  module,
  state,
  dispatch,
}: StepProps & { module?: ScenarioTreeModule }) {
  const { t } = useTranslation();
  const content = useContentText();
  if (!module || module.levels.length === 0) return <Empty>{t('sessions:wizard.noLevels')}</Empty>;
  return (
    <ChoiceCards
      label={t('sessions:wizard.steps.level')}
      items={module.levels}
      value={state.levelId}
      onChange={(id) => dispatch({ type: 'selectLevel', id })}
      render={(item: ScenarioTreeLevel) => (
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
  );
}

export function OptionsStep({ choices, state, dispatch }: StepProps & { choices: Choices }) {
  const { t } = useTranslation();
  const content = useContentText();
  const options = choices.level?.options ?? [];
  return (
    <SimpleGrid type="container" cols={{ base: 1, '720px': 2 }} spacing="lg">
      {options.length === 0 ? (
        <Empty>{t('sessions:wizard.noOptions')}</Empty>
      ) : (
        <Checkbox.Group
          label={t('sessions:wizard.steps.options')}
          value={state.optionIds}
          onChange={(ids) => dispatch({ type: 'setOptions', ids })}
        >
          <Stack gap="sm" mt="xs">
            {options.map((option) => (
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
      <WizardSummary state={state} choices={choices} />
    </SimpleGrid>
  );
}
