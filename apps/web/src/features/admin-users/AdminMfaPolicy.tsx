import { Card, Group, Stack, Switch, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useMfaPolicy, usePutMfaPolicy } from '../../api/mfa';
import { useConfirmedAction } from '../../components/use-confirmed-action';

/**
 * The platform's own setting, above its accounts: whether platform admins must have a second
 * factor (organisations set theirs in their form). A change asks first and says how it went.
 */
export function AdminMfaPolicy() {
  const { t } = useTranslation('adminUsers');
  const policy = useMfaPolicy();
  const put = usePutMfaPolicy();
  const change = useConfirmedAction(put, {
    success: (answer) =>
      answer.admins_required ? t('mfaPolicy.turnedOn') : t('mfaPolicy.turnedOff'),
    error: t('mfaPolicy.failed'),
  });
  const required = policy.data?.admins_required ?? false;

  function toggle(next: boolean) {
    void change(next, {
      title: next ? t('mfaPolicy.onTitle') : t('mfaPolicy.offTitle'),
      message: next ? t('mfaPolicy.onConfirm') : t('mfaPolicy.offConfirm'),
      confirmLabel: next ? t('mfaPolicy.turnOn') : t('mfaPolicy.turnOff'),
      danger: !next,
    });
  }

  return (
    <Card withBorder radius="lg" p="md" mb="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconShieldLock size={22} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={2}>
            <Text fw={500} id="admin-mfa-policy-label">
              {t('mfaPolicy.label')}
            </Text>
            <Text size="sm" c="dimmed">
              {policy.isError
                ? t('mfaPolicy.loadFailed')
                : required
                  ? t('mfaPolicy.onHint')
                  : t('mfaPolicy.offHint')}
            </Text>
          </Stack>
        </Group>
        <Switch
          aria-labelledby="admin-mfa-policy-label"
          checked={required}
          disabled={!policy.data || put.isPending}
          onChange={(event) => toggle(event.currentTarget.checked)}
          size="md"
        />
      </Group>
    </Card>
  );
}
