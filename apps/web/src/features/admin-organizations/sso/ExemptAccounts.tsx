import { Loader, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Account } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccounts, useUpdateAccount } from '../../../api/accounts';
import { errorText } from '../../../lib/error-text';
import { notifyError } from '../../../lib/notify';

/** As many accounts as fit the dialog; a search finds the others. */
const SHOWN = 10;

/**
 * The break-glass accounts (docs/sso.md): the organisation's accounts a platform admin lets sign
 * in by password although single sign-on is required, each with its switch.
 */
export function ExemptAccounts({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation('adminOrganizations');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const accounts = useAccounts({
    organization_id: organizationId,
    limit: SHOWN,
    sort: 'email',
    ...(q ? { q } : {}),
  });
  const rows = accounts.data?.users ?? [];
  const total = accounts.data?.total ?? 0;
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        {t('sso.exemptTitle')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('sso.exemptHint')}
      </Text>
      <TextInput
        aria-label={t('sso.exemptSearch')}
        placeholder={t('sso.exemptSearch')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maxLength={200}
      />
      {accounts.isPending ? <Loader size="sm" aria-label={t('sso.loading')} /> : null}
      {accounts.error ? (
        <Text size="sm" c="red" role="alert">
          {errorText(accounts.error, t('sso.exemptLoadFailed'))}
        </Text>
      ) : null}
      {accounts.data && rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('sso.exemptNone')}
        </Text>
      ) : null}
      {rows.map((account) => (
        <ExemptSwitch key={account.id} account={account} />
      ))}
      {total > rows.length ? (
        <Text size="xs" c="dimmed">
          {t('sso.exemptMore', { shown: rows.length, total })}
        </Text>
      ) : null}
    </Stack>
  );
}

function ExemptSwitch({ account }: { account: Account }) {
  const { t } = useTranslation('adminOrganizations');
  const update = useUpdateAccount();
  // Turns at once; turns back should the server refuse.
  const [checked, setChecked] = useState(account.sso_exempt ?? false);
  async function toggle(exempt: boolean) {
    setChecked(exempt);
    try {
      await update.mutateAsync({ id: account.id, body: { sso_exempt: exempt } });
    } catch (error) {
      setChecked(!exempt);
      notifyError(errorText(error, t('sso.exemptFailed')));
    }
  }
  return (
    <Switch
      label={account.email}
      description={account.active ? undefined : t('sso.exemptInactive')}
      checked={checked}
      disabled={update.isPending}
      onChange={(event) => void toggle(event.currentTarget.checked)}
      styles={{ label: { overflowWrap: 'anywhere' } }}
    />
  );
}
