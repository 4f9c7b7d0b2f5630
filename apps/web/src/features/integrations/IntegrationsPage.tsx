import { Box, Button, Stack } from '@mantine/core';
import { IconPlugConnected, IconPlus } from '@tabler/icons-react';
import type { Integration, IntegrationTestResult } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteIntegration,
  useIntegrations,
  useRotateIntegrationSecret,
  useTestIntegration,
  useUpdateIntegration,
} from '../../api/integrations';
import { organizationOptions, useOrganization } from '../../api/organizations';
import { useAuth } from '../../auth/AuthProvider';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { ServerSelect } from '../../components/ServerSelect';
import { confirmAction } from '../../components/confirm';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { DeliveryLog } from './DeliveryLog';
import { IntegrationCard, type IntegrationActions } from './IntegrationCard';
import { IntegrationFormModal } from './IntegrationFormModal';
import { SecretModal } from './SecretModal';
import { useIntegrationsState } from './integrations-state';

/**
 * Integrations: where an organisation's results and events go (signed webhooks, and xAPI to a
 * learning record store). Staff manage their organisation's; an admin chooses the organisation.
 * A webhook's signing secret is shown once, on create and on rotate; a test send shows what the
 * receiver answered; each integration's delivery log opens under the list, its state in the URL.
 */
export function IntegrationsPage() {
  const { t } = useTranslation('integrations');
  const admin = useAuth().state.user?.role === 'admin';
  const state = useIntegrationsState({ admin });
  const integrations = useIntegrations(state.organizationId);
  const chosenOrganization = useOrganization(admin ? state.organizationId : undefined);
  const [editing, setEditing] = useState<{ integration?: Integration } | undefined>();
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | undefined>();
  const [testResults, setTestResults] = useState<Record<string, IntegrationTestResult>>({});
  const test = useTestIntegration();
  const update = useUpdateIntegration();
  const rotate = useRotateIntegrationSecret();
  const remove = useConfirmedAction(useDeleteIntegration(), {
    success: t('remove.done'),
    error: t('remove.failed'),
  });
  const disable = useConfirmedAction(update, {
    success: t('toggle.disabled'),
    error: t('toggle.failed'),
  });
  const list = integrations.data?.integrations ?? [];
  const logOf = list.find((integration) => integration.id === state.logId);

  const actions: IntegrationActions = {
    edit: (integration) => setEditing({ integration }),
    openLog: (integration) => state.openLog(integration.id),
    async test(integration) {
      try {
        const result = await test.mutateAsync(integration.id);
        setTestResults((results) => ({ ...results, [integration.id]: result }));
      } catch (error) {
        notifyError(errorText(error, t('test.failed')));
      }
    },
    async rotate(integration) {
      const confirmed = await confirmAction({
        title: t('rotate.title'),
        message: t('rotate.confirm'),
        confirmLabel: t('rotate.button'),
      });
      if (!confirmed) return;
      // The new secret shows in its own dialog, once; no toast: the dialog is the news.
      try {
        const answer = await rotate.mutateAsync(integration.id);
        if (answer.secret) setSecret({ value: answer.secret, rotated: true });
      } catch (error) {
        notifyError(errorText(error, t('rotate.failed')));
      }
    },
    async toggle(integration) {
      if (integration.enabled) {
        await disable(
          { id: integration.id, body: { enabled: false } },
          {
            title: t('toggle.disableTitle'),
            message: t('toggle.disableConfirm', { url: integration.url }),
            confirmLabel: t('action.disable'),
            danger: true,
          },
        );
        return;
      }
      try {
        await update.mutateAsync({ id: integration.id, body: { enabled: true } });
        notifySuccess(t('toggle.enabled'));
      } catch (error) {
        notifyError(errorText(error, t('toggle.failed')));
      }
    },
    async remove(integration) {
      await remove(integration.id, {
        title: t('remove.title'),
        message: t('remove.confirm', { url: integration.url }),
        confirmLabel: t('common:delete'),
        danger: true,
      });
      if (state.logId === integration.id) state.closeLog();
    },
  };

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
      {admin ? (
        <Box maw={360} mb="md">
          <ServerSelect
            label={t('organization')}
            placeholder={t('ownOrganization')}
            options={organizationOptions}
            value={state.organizationId ?? null}
            valueLabel={chosenOrganization.data?.name}
            onChange={(id) => state.setOrganization(id)}
            clearable
            clearButtonProps={{ 'aria-label': t('common:clear') }}
            nothingFoundMessage={t('nothingFound')}
          />
        </Box>
      ) : null}
      <QueryState
        isPending={integrations.isPending}
        error={integrations.data ? null : integrations.error}
        onRetry={() => integrations.refetch()}
      >
        {list.length === 0 ? (
          <Empty
            icon={<IconPlugConnected size={28} />}
            title={t('emptyTitle')}
            description={t('emptyText')}
            action={
              <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
                {t('add')}
              </Button>
            }
          />
        ) : (
          <Stack gap="md">
            {list.map((integration) => (
              <IntegrationCard
                key={integration.id}
                integration={integration}
                actions={actions}
                testing={test.isPending && test.variables === integration.id}
                testResult={testResults[integration.id]}
              />
            ))}
          </Stack>
        )}
      </QueryState>
      {logOf ? <DeliveryLog integration={logOf} state={state} /> : null}
      <IntegrationFormModal
        opened={editing !== undefined}
        integration={editing?.integration}
        organizationId={state.organizationId}
        onClose={() => setEditing(undefined)}
        onCreated={(value) => {
          if (value) setSecret({ value, rotated: false });
        }}
      />
      <SecretModal
        secret={secret?.value}
        rotated={secret?.rotated ?? false}
        onClose={() => setSecret(undefined)}
      />
    </>
  );
}
