import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { Accordion, Card, TextInput } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { IconKey, IconSearch } from '@tabler/icons-react';
import type {
  ScenarioAccessEntry,
  ScenarioAccessOrganization,
  ScenarioAccessQuery,
} from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { PAGE_SIZE } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryState } from '../../components/QueryState';
import { useKeepPageInRange, useListState } from '../../lib/list-state';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useRevokeAccess, useScenarioAccess } from '../../api/access';
import { GrantAccessModal } from './GrantAccessModal';
import { ScenarioAccessItem } from './ScenarioAccessItem';

const ACCESS_SORT_FIELDS = ['scenario_name'] as const satisfies readonly NonNullable<
  ScenarioAccessQuery['sort']
>[];

export function ScenarioAccessPage() {
  const { t, i18n } = useTranslation('adminAccess');
  const content = useContentText();
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: ACCESS_SORT_FIELDS,
    defaultSort: { sort: 'scenario_name', order: 'asc' },
  });
  const access = useScenarioAccess(list.query);
  const revoke = useConfirmedAction(useRevokeAccess(), {
    success: t('revoked'),
    error: t('revokeFailed'),
  });
  const [opened, setOpened] = useState<string[]>([]);
  const [grantFor, setGrantFor] = useState<string | undefined>();

  const entries = access.data?.scenario_access ?? [];
  const total = access.data?.total ?? 0;
  useKeepPageInRange(list, entries.length, access.data?.total);
  // The dialog follows the latest data of its scenario.
  const grantEntry = entries.find((entry) => entry.scenario_id === grantFor);

  async function revokeFrom(entry: ScenarioAccessEntry, organization: ScenarioAccessOrganization) {
    await revoke(
      { scenarioId: entry.scenario_id, body: { organization_ids: [organization.organization_id] } },
      {
        title: t('revokeTitle'),
        message: t('revokeConfirm', {
          organization: organization.organization_name,
          scenario: content.text(entry.scenario_name, entry.scenario_name_en),
        }),
        confirmLabel: t('revoke'),
        danger: true,
      },
    );
  }

  /** Every organisation that has access now; expired grants stay listed. */
  async function revokeAll(entry: ScenarioAccessEntry) {
    await revoke(
      { scenarioId: entry.scenario_id, body: { all_with_access: true } },
      {
        title: t('revokeAllTitle'),
        message: t('revokeAllConfirm', {
          count: entry.organizations_with_access,
          scenario: content.text(entry.scenario_name, entry.scenario_name_en),
        }),
        confirmLabel: t('revokeAll'),
        danger: true,
      },
    );
  }

  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'ru', firstDayOfWeek: 1 }}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Card withBorder radius="lg" p="md">
        <QueryState
          isPending={access.isPending}
          error={access.data ? null : access.error}
          errorText={t('loadFailed')}
          onRetry={() => access.refetch()}
        >
          <TextInput
            aria-label={t('search')}
            placeholder={t('searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={list.search}
            onChange={(event) => list.setSearch(event.currentTarget.value)}
            w={{ base: '100%', sm: 320 }}
            mb="md"
          />
          {entries.length === 0 ? (
            <Empty
              icon={<IconKey size={28} />}
              title={list.filtered ? t('noMatches') : t('emptyTitle')}
              description={list.filtered ? undefined : t('emptyText')}
            />
          ) : (
            <Accordion
              multiple
              value={opened}
              onChange={setOpened}
              variant="separated"
              radius="md"
              style={access.isPlaceholderData ? { opacity: 0.6 } : undefined}
            >
              {entries.map((entry) => (
                <ScenarioAccessItem
                  key={entry.scenario_id}
                  entry={entry}
                  onGrant={() => setGrantFor(entry.scenario_id)}
                  onRevoke={(organization) => revokeFrom(entry, organization)}
                  onRevokeAll={() => revokeAll(entry)}
                />
              ))}
            </Accordion>
          )}
          {total > list.pageSize ? (
            <Pager
              total={total}
              pageIndex={list.pageIndex}
              pageSize={list.pageSize}
              onPageChange={list.setPage}
            />
          ) : null}
        </QueryState>
      </Card>
      <GrantAccessModal entry={grantEntry} onClose={() => setGrantFor(undefined)} />
    </DatesProvider>
  );
}
