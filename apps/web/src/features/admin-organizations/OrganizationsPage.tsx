import { Button, Group, Text } from '@mantine/core';
import { IconBuilding, IconPlus } from '@tabler/icons-react';
import { ORGANIZATION_SORT_FIELDS, type Organization } from '@vrtc/contract';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useOrganization, useOrganizationList } from '../../api/organizations';
import { PAGE_SIZE } from '../../components/DataTable';
import { ListCard, ListSearch } from '../../components/ListCard';
import { PageHeader } from '../../components/PageHeader';
import { useListState } from '../../lib/list-state';
import { OrganizationAnalyticsModal } from './OrganizationAnalyticsModal';
import { OrganizationFormModal } from './OrganizationFormModal';
import { useOrganizationColumns } from './organization-columns';
import { SummaryCards } from './SummaryCards';
import { useRemoveOrganization } from './use-remove-organization';

// Its own chunk: only a platform admin setting up an identity provider loads it.
const SsoSection = lazy(() => import('./sso/SsoSection'));

export function OrganizationsPage() {
  const { t } = useTranslation('adminOrganizations');
  const list = useListState({
    pageSize: PAGE_SIZE,
    sortFields: ORGANIZATION_SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
  });
  // With their figures (sorting by one needs them) and the summary of every organisation.
  const organizations = useOrganizationList({ include_stats: true, ...list.query });
  const remove = useRemoveOrganization();
  const [editing, setEditing] = useState<{ organization?: Organization } | undefined>();
  const [analyticsFor, setAnalyticsFor] = useState<Organization | undefined>();
  const [ssoFor, setSsoFor] = useState<Organization | undefined>();
  const linked = useLinkedSso();
  const summary = organizations.data?.summary;

  const columns = useOrganizationColumns({
    onAnalytics: setAnalyticsFor,
    onSso: setSsoFor,
    onEdit: (organization) => setEditing({ organization }),
    onDelete: remove,
  });

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
            {t('add')}
          </Button>
        }
      />
      {summary ? <SummaryCards summary={summary} /> : null}
      <ListCard
        query={organizations}
        errorText={t('loadFailed')}
        toolbar={
          <Group justify="space-between" mb="md" gap="sm">
            <ListSearch list={list} label={t('search')} placeholder={t('searchPlaceholder')} />
            <Text size="xs" c="dimmed">
              {t('rowHint')}
            </Text>
          </Group>
        }
        rows={organizations.data?.organizations ?? []}
        total={organizations.data?.total ?? 0}
        state={list}
        columns={columns}
        getRowId={(organization) => organization.id}
        onRowClick={setAnalyticsFor}
        noMatches={t('noMatches')}
        empty={{
          icon: <IconBuilding size={28} />,
          title: t('emptyTitle'),
          description: t('emptyText'),
          action: (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
              {t('add')}
            </Button>
          ),
        }}
      />
      <OrganizationFormModal
        opened={Boolean(editing)}
        organization={editing?.organization}
        onClose={() => setEditing(undefined)}
      />
      <OrganizationAnalyticsModal
        organization={analyticsFor}
        onClose={() => setAnalyticsFor(undefined)}
      />
      {ssoFor ? (
        <Suspense fallback={null}>
          <SsoSection organization={ssoFor} onClose={() => setSsoFor(undefined)} />
        </Suspense>
      ) : linked.organization ? (
        <Suspense fallback={null}>
          <SsoSection
            organization={linked.organization}
            tested={linked.tested}
            onClose={linked.close}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * `/admin/organizations/:id`, where a test sign-in comes back (`?sso_test=` or `?sso_error=`):
 * that organisation's single sign-on opens with what the test saw.
 */
function useLinkedSso() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const organization = useOrganization(id);
  return {
    organization: id ? organization.data : undefined,
    tested: { testId: search.get('sso_test'), startError: search.get('sso_error') },
    close: () => navigate('/admin/organizations', { replace: true }),
  };
}
