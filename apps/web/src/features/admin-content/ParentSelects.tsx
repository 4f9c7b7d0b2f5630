import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerSelect } from '../../components/ServerSelect';
import { levelLabel, levelOptions, moduleOptions, scenarioOptions } from '../../api/content';
import { useContentText } from '../../lib/content-text';
import type { PanelProps } from './panel-props';
import { selectLevel, selectModule, selectScenario } from './selection';

/**
 * The parents a tab's rows are under, each a searchable select: the scenario (modules tab), and
 * the module (levels tab) and the level (options tab) under it; named in the console's language.
 */
export function ParentSelects({
  depth,
  selection,
  tree,
  choose,
}: Pick<PanelProps, 'selection' | 'tree' | 'choose'> & { depth: 1 | 2 | 3 }) {
  const { t } = useTranslation('adminContent');
  const content = useContentText();
  const options = useMemo(
    () => ({
      scenarios: scenarioOptions(content),
      modules: moduleOptions(selection.scenarioId ?? '', content),
      levels: levelOptions(selection.moduleId ?? '', content),
    }),
    [content, selection.scenarioId, selection.moduleId],
  );
  const chosenModule = tree?.modules.find((m) => m.id === selection.moduleId);
  const chosenLevel = chosenModule?.levels.find((l) => l.id === selection.levelId);
  return (
    <>
      <ServerSelect
        label={t('scenario')}
        placeholder={t('chooseScenario')}
        options={options.scenarios}
        value={selection.scenarioId}
        valueLabel={tree ? content.name(tree) : undefined}
        onChange={(value) => choose(selectScenario(selection, value))}
        nothingFoundMessage={t('nothingFound')}
      />
      {depth >= 2 ? (
        <ServerSelect
          label={t('module')}
          placeholder={t('chooseModule')}
          options={options.modules}
          value={selection.moduleId}
          valueLabel={chosenModule ? content.name(chosenModule) : undefined}
          onChange={(value) => choose(selectModule(selection, value))}
          disabled={!selection.scenarioId}
          nothingFoundMessage={t('nothingFound')}
        />
      ) : null}
      {depth >= 3 ? (
        <ServerSelect
          label={t('level')}
          placeholder={t('chooseLevel')}
          options={options.levels}
          value={selection.levelId}
          valueLabel={chosenLevel ? levelLabel(chosenLevel, content) : undefined}
          onChange={(value) => choose(selectLevel(selection, value))}
          disabled={!selection.moduleId}
          nothingFoundMessage={t('nothingFound')}
        />
      ) : null}
    </>
  );
}
