import {
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import type { MfaChallenge } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { errorCodeOf, errorText } from '../../lib/error-text';
import { goTo, ssoErrorOf, ssoStartUrl } from './single-sign-on';
import { useSsoDiscovery } from './use-sso-discovery';
import { useAuth } from '../../auth/AuthProvider';
import { afterSignIn } from '../../auth/next-path';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';

// The second step loads only for an account with a second factor (the login page's budget).
const MfaStep = lazy(() => import('./MfaStep').then((module) => ({ default: module.MfaStep })));

export interface LoginPageProps {
  /** Told the page a sign-in will go to as it is sent (the console starts loading that page). */
  onSignIn?: (path: string) => void;
}

interface FieldErrors {
  email?: 'auth:emailRequired' | 'auth:emailInvalid';
  password?: 'auth:passwordRequired';
}

/** What the form can tell without the server: a field left empty, or no "@" between two parts. */
function checkFields(email: string, password: string): FieldErrors {
  const trimmed = email.trim();
  return {
    email: !trimmed
      ? 'auth:emailRequired'
      : /^[^\s@]+@[^\s@]+$/.test(trimmed)
        ? undefined
        : 'auth:emailInvalid',
    password: password ? undefined : 'auth:passwordRequired',
  };
}

export function LoginPage({ onSignIn }: LoginPageProps = {}) {
  const { t } = useTranslation();
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const ssoError = ssoErrorOf(location.search);
  const [failure, setFailure] = useState<string | undefined>(
    ssoError ? t(`auth:ssoError.${ssoError}`) : undefined,
  );
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [challenge, setChallenge] = useState<MfaChallenge>();
  const { discovery, learn } = useSsoDiscovery(email);
  // An enforced organisation's exempt (break-glass) account still signs in with its password.
  const [passwordAnyway, setPasswordAnyway] = useState(false);
  const ssoOnly = discovery.enforced && !passwordAnyway;

  /** "Continue with single sign-on": the provider of the email's organisation. */
  function singleSignOn() {
    const errors = checkFields(email, 'x');
    setFieldErrors(errors);
    if (errors.email) return;
    goTo.href(ssoStartUrl(email, afterSignIn(location.search)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    // The organisation signs in only at its identity provider: no password is asked.
    if (ssoOnly) return singleSignOn();
    // Said beside the field and never sent: the server could only answer "check your credentials".
    const errors = checkFields(email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    setSubmitting(true);
    // Back to the page that was asked for (`?next=`, a path of the console only), else home.
    const next = afterSignIn(location.search);
    onSignIn?.(next);
    try {
      const answer = await login(email.trim(), password);
      if ('mfa_required' in answer) setChallenge(answer);
      else navigate(next, { replace: true });
    } catch (error) {
      // The organisation signs in at its identity provider: go there with this email.
      if (errorCodeOf(error, ['sso_required'])) {
        learn({ sso: true, enforced: true });
        return goTo.href(ssoStartUrl(email, next));
      }
      setFailure(errorText(error, t('auth:loginFailed')));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Box w="100%" maw={420}>
        <Group justify="flex-end" mb="sm">
          <LanguageSwitcher />
        </Group>
        <Paper withBorder shadow="sm" p="xl" radius="lg">
          {challenge ? (
            <Suspense fallback={null}>
              <MfaStep
                challenge={challenge}
                onDone={() => navigate(afterSignIn(location.search), { replace: true })}
                onBack={() => {
                  setChallenge(undefined);
                  setPassword('');
                }}
              />
            </Suspense>
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack>
                <div>
                  <Title order={2}>{t('common:appName')}</Title>
                  <Text c="dimmed" size="sm" mt={4}>
                    {t('auth:subtitle')}
                  </Text>
                </div>
                {failure ? (
                  <Alert color="red" role="alert">
                    {failure}
                  </Alert>
                ) : null}
                <TextInput
                  label={t('auth:email')}
                  type="email"
                  autoComplete="username"
                  name="email"
                  value={email}
                  onChange={(event) => setEmail(event.currentTarget.value)}
                  error={fieldErrors.email ? t(fieldErrors.email) : undefined}
                  data-autofocus
                  autoFocus
                />
                {ssoOnly ? (
                  <Text size="sm">{t('auth:ssoEnforced')}</Text>
                ) : (
                  <PasswordInput
                    label={t('auth:password')}
                    autoComplete="current-password"
                    name="password"
                    value={password}
                    onChange={(event) => setPassword(event.currentTarget.value)}
                    error={fieldErrors.password ? t(fieldErrors.password) : undefined}
                    visibilityToggleButtonProps={{ 'aria-label': t('auth:togglePassword') }}
                    // Asked for by the exempt account's link: the field it brought back.
                    autoFocus={passwordAnyway}
                  />
                )}
                {ssoOnly ? (
                  <Button type="submit" fullWidth mt="xs">
                    {t('auth:continueWithSso')}
                  </Button>
                ) : (
                  <Button type="submit" loading={submitting} fullWidth mt="xs">
                    {t('auth:signIn')}
                  </Button>
                )}
                {discovery.sso && !ssoOnly ? (
                  <Button variant="subtle" fullWidth onClick={singleSignOn}>
                    {t('auth:continueWithSso')}
                  </Button>
                ) : null}
                {ssoOnly ? (
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    ta="center"
                    onClick={() => setPasswordAnyway(true)}
                  >
                    {t('auth:passwordAnyway')}
                  </Anchor>
                ) : null}
              </Stack>
            </form>
          )}
        </Paper>
      </Box>
    </Center>
  );
}
