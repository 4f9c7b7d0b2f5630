import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import type { MfaChallenge, MfaVerifyBody } from '@vrtc/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { routes } from '../../api/routes';
import { useAuth } from '../../auth/AuthProvider';
import { errorText } from '../../lib/error-text';

export interface MfaStepProps {
  challenge: MfaChallenge;
  /** Signed in: go on to the page asked for. */
  onDone: () => void;
  /** Back to the password (the step expired, or another account). */
  onBack: () => void;
}

/**
 * The sign-in's second step (decision 031): a code of the authenticator app, a passkey (WebAuthn
 * through @simplewebauthn/browser, loaded only when pressed), or a recovery code.
 */
export function MfaStep({ challenge, onDone, onBack }: MfaStepProps) {
  const { t } = useTranslation('mfa');
  const { verify } = useAuth();
  const [recovery, setRecovery] = useState(!challenge.methods.includes('totp'));
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function send(body: Omit<MfaVerifyBody, 'mfa_token'>) {
    setFailure(undefined);
    setBusy(true);
    try {
      await verify({ mfa_token: challenge.mfa_token, ...body });
      onDone();
    } catch (error) {
      setFailure(errorText(error, t('common:error')));
    } finally {
      setBusy(false);
    }
  }

  async function passkey() {
    setFailure(undefined);
    try {
      const { options } = await api.call(routes.mfaPasskeyOptions, {
        body: { mfa_token: challenge.mfa_token },
      });
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const answer = await startAuthentication({
        optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      });
      await send({ passkey: JSON.stringify(answer) });
    } catch (error) {
      setFailure(errorText(error, t('common:error')));
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) void send(recovery ? { recovery_code: code.trim() } : { code: code.trim() });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <div>
          <Title order={2}>{t('step.title')}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('step.intro')}
          </Text>
        </div>
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        {challenge.methods.includes('passkey') ? (
          <Button variant="light" onClick={() => void passkey()} disabled={busy}>
            {t('step.passkey')}
          </Button>
        ) : null}
        {challenge.methods.includes('totp') || challenge.methods.includes('recovery_code') ? (
          <>
            <TextInput
              label={recovery ? t('step.recoveryCode') : t('step.code')}
              inputMode={recovery ? 'text' : 'numeric'}
              autoComplete="one-time-code"
              name="code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              maxLength={40}
              data-autofocus
              autoFocus
            />
            <Button type="submit" loading={busy} fullWidth>
              {t('step.verify')}
            </Button>
          </>
        ) : null}
        {challenge.methods.includes('totp') && challenge.methods.includes('recovery_code') ? (
          <Anchor component="button" type="button" size="sm" onClick={() => setRecovery(!recovery)}>
            {recovery ? t('step.useCode') : t('step.useRecovery')}
          </Anchor>
        ) : null}
        <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onBack}>
          {t('step.back')}
        </Anchor>
      </Stack>
    </form>
  );
}
