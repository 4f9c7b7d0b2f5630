import { Alert, Divider, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMfaStatus } from '../../api/mfa';
import { PasskeysSection } from './PasskeysSection';
import { RecoveryCodesNotice } from './RecoveryCodesNotice';
import { TotpSection } from './TotpSection';

/**
 * The signed-in account's second factors (decision 031): its authenticator app, its passkeys,
 * how many recovery codes are left, and new recovery codes the moment they are made. Used by the
 * account menu's dialog and by the enrolment a required policy sends an account to.
 */
export function SecurityPanel({ onEnrolled }: { onEnrolled?: () => void }) {
  const { t } = useTranslation('mfa');
  const status = useMfaStatus();
  const [codes, setCodes] = useState<string[]>();
  if (!status.data) return <Loader size="sm" aria-label={t('title')} />;
  const { totp, passkeys, recovery_codes_left, required } = status.data;
  const enrolled = totp || passkeys.length > 0;
  return (
    <Stack>
      <Text size="sm">{t('intro')}</Text>
      {required ? <Alert color="blue">{t('required')}</Alert> : null}
      {codes ? (
        <RecoveryCodesNotice
          codes={codes}
          onDone={() => {
            setCodes(undefined);
            onEnrolled?.();
          }}
        />
      ) : null}
      <TotpSection on={totp} onCodes={setCodes} />
      <Divider />
      <PasskeysSection passkeys={passkeys} onCodes={setCodes} />
      {enrolled && !codes ? (
        <Text size="sm" c="dimmed">
          {t('recovery.left', { count: recovery_codes_left })}
        </Text>
      ) : null}
    </Stack>
  );
}
