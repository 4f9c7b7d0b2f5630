import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import type { LmsPackageKey } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePackageKeys, useRevokePackageKey } from '../../api/lms';
import { useAuth } from '../../auth/AuthProvider';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryState } from '../../components/QueryState';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { formatDateTime } from '../../lib/format';

const PAGE_SIZE = 20;

/**
 * LMS packages (docs/lms.md): every SCORM package the organisation exported, newest first, with
 * its launches; staff revoke a key, which stops new launches from its package at once.
 */
export function LmsPackagesPage() {
  const { t, i18n } = useTranslation('lms');
  const [page, setPage] = useState(0);
  const keys = usePackageKeys({ limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const staff = useAuth().state.user?.role !== 'auditor';
  const revoke = useConfirmedAction(useRevokePackageKey(), {
    success: t('revoke.done'),
    error: t('revoke.failed'),
  });
  const list = keys.data?.package_keys ?? [];
  const row = (key: LmsPackageKey) => (
    <Table.Tr key={key.id}>
      <Table.Td>
        <Text size="sm" fw={500}>
          {key.title}
        </Text>
        <Text size="xs" c="dimmed">
          {key.level_id ? t('kind.level') : t('kind.qualification')} · SCORM {key.scorm_version}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDateTime(key.created_at, i18n.language)}</Text>
        <Text size="xs" c="dimmed">
          {key.created_by_email ?? ''}
        </Text>
      </Table.Td>
      <Table.Td>{key.launch_count}</Table.Td>
      <Table.Td>
        {key.revoked_at ? (
          <Badge color="gray" variant="light">
            {t('revoked')}
          </Badge>
        ) : staff ? (
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() =>
              void revoke(key.id, {
                title: t('revoke.title'),
                message: t('revoke.confirm', { title: key.title }),
                confirmLabel: t('revoke.action'),
                danger: true,
              })
            }
          >
            {t('revoke.action')}
          </Button>
        ) : (
          <Badge variant="light">{t('active')}</Badge>
        )}
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Stack>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <QueryState
        isPending={keys.isPending}
        error={keys.error}
        onRetry={() => void keys.refetch()}
        errorText={t('loadFailed')}
      >
        {list.length === 0 ? (
          <Empty icon={<IconSchool size={28} />} title={t('empty')} />
        ) : (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('col.package')}</Table.Th>
                    <Table.Th>{t('col.exported')}</Table.Th>
                    <Table.Th>{t('col.launches')}</Table.Th>
                    <Table.Th>{t('col.key')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>{list.map(row)}</Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Pager
              total={keys.data?.total ?? 0}
              pageIndex={page}
              pageSize={PAGE_SIZE}
              onPageChange={setPage}
            />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
