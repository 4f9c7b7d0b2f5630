import {
  Badge,
  Button,
  Code,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { TotpEnrolment } from '@vrtc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmTotp, useRemoveTotp, useStartTotp } from '../../api/mfa';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';

/**
 * The authenticator app: set up (the key as a QR code and as text, confirmed with a code of the
 * app), or removed with the password. New recovery codes go to `onCodes`.
 */
export function TotpSection({ on, onCodes }: { on: boolean; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation('mfa');
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const remove = useRemoveTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [removing, setRemoving] = useState(false);

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: setEnrolment,
      onError: (error) => notifyError(errorText(error, t('common:error'))),
    });
  const finish = () =>
    confirm.mutate(code.trim(), {
      onSuccess: ({ recovery_codes }) => {
        setEnrolment(undefined);
        setCode('');
        notifySuccess(t('totp.enrolled'));
        if (recovery_codes.length > 0) onCodes(recovery_codes);
      },
    });
  const drop = () =>
    remove.mutate(
      { password },
      {
        onSuccess: () => {
          setRemoving(false);
          setPassword('');
          notifySuccess(t('totp.removed'));
        },
      },
    );

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>{t('totp.title')}</Title>
        <Badge color={on ? 'green' : 'gray'}>{on ? t('totp.on') : t('totp.off')}</Badge>
      </Group>
      {!on && !enrolment ? (
        <Button
          variant="light"
          onClick={begin}
          loading={start.isPending}
          // Russian's label is wider than a 360 px phone's dialog: it wraps, never cut off.
          h="auto"
          mih={36}
          py={6}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
        >
          {t('totp.start')}
        </Button>
      ) : null}
      {enrolment ? (
        <Stack gap="xs">
          <Text size="sm">{t('totp.scan')}</Text>
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
            alt={t('totp.qrAlt')}
            width={180}
            height={180}
          />
          <Text size="sm">
            {t('totp.key')}: <Code data-testid="totp-secret">{enrolment.secret}</Code>
          </Text>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t('totp.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={confirm.error ? errorText(confirm.error, t('common:error')) : undefined}
              maxLength={20}
            />
            <Button onClick={finish} loading={confirm.isPending} disabled={!code.trim()}>
              {t('totp.confirm')}
            </Button>
          </Group>
        </Stack>
      ) : null}
      {on && !removing ? (
        <Button variant="subtle" color="red" onClick={() => setRemoving(true)}>
          {t('totp.remove')}
        </Button>
      ) : null}
      {on && removing ? (
        <Group align="flex-end" wrap="wrap">
          <PasswordInput
            label={t('totp.removePrompt')}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={remove.error ? errorText(remove.error, t('common:error')) : undefined}
            maxLength={200}
          />
          <Button color="red" onClick={drop} loading={remove.isPending} disabled={!password}>
            {t('totp.remove')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
