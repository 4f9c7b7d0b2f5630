import { Button, Card, Tabs } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { notifyError } from '../../lib/notify';
import type { ContentItem, ContentKind } from '../../api/content';
import type { RowActions } from './content-cells';
import { kindOf, parseTab, TABS, type Tab } from './content-tabs';
import { ContentFormModal, type ContentFormTarget } from './ContentFormModal';
import { LevelsPanel } from './LevelsPanel';
import { ModulesPanel } from './ModulesPanel';
import { OptionsPanel } from './OptionsPanel';
import type { PanelProps } from './panel-props';
import { ScenariosPanel } from './ScenariosPanel';
import { missingParent, nextFreeNumber, parentOf } from './selection';
import { useContentSelection } from './use-content-selection';

const PANELS: Record<Tab, (props: PanelProps) => ReactNode> = {
  scenarios: ScenariosPanel,
  modules: ModulesPanel,
  levels: LevelsPanel,
  options: OptionsPanel,
};

/**
 * Scenarios, modules, levels and options, each a table the server pages, sorts and searches (one
 * panel per tab). The tab (`tab`), the chosen scenario, module and level (`scenario`, `module`,
 * `level`) and the table's page, sort and search live in the URL; another tab or parent starts on
 * a first page. This page holds the add and edit dialog and the confirmed deletion.
 */
export function ContentPage() {
  const { t } = useTranslation('adminContent');
  const { tab, selection, tree, deleteContent, choose } = useContentSelection();
  const kind = kindOf(tab);
  const [formTarget, setFormTarget] = useState<ContentFormTarget | undefined>();
  const remove = useConfirmedAction(deleteContent, {
    success: (_answer, { kind: removed }) => t(`deleted.${removed}`),
    error: t('deleteFailed'),
  });

  function openCreate() {
    const missing = missingParent(kind, selection);
    if (missing) {
      notifyError(t(missing));
      return;
    }
    setFormTarget({
      kind,
      parentId: parentOf(kind, selection) ?? undefined,
      next: nextFreeNumber(kind, selection, tree),
    });
  }

  const onDelete = useCallback(
    (itemKind: ContentKind, item: ContentItem) =>
      remove(
        { kind: itemKind, id: item.id },
        {
          title: t(`deleteTitle.${itemKind}`),
          message: t(`deleteConfirm.${itemKind}`, { name: item.name }),
          confirmLabel: t('common:delete'),
          danger: true,
        },
      ),
    [remove, t],
  );
  const actions = useMemo<RowActions>(
    () => ({ onEdit: (itemKind, item) => setFormTarget({ kind: itemKind, item }), onDelete }),
    [onDelete],
  );
  const Panel = PANELS[tab];

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
            {t(`add.${kind}`)}
          </Button>
        }
      />
      <Card withBorder radius="lg" p="md">
        <Tabs
          value={tab}
          onChange={(value) => value && choose(selection, parseTab(value))}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            {TABS.map((entry) => (
              <Tabs.Tab key={entry.tab} value={entry.tab} leftSection={entry.icon}>
                {t(`tabs.${entry.tab}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value={tab}>
            <Panel
              selection={selection}
              tree={tree}
              choose={choose}
              actions={actions}
              onCreate={openCreate}
            />
          </Tabs.Panel>
        </Tabs>
      </Card>
      <ContentFormModal target={formTarget} onClose={() => setFormTarget(undefined)} />
    </>
  );
}
