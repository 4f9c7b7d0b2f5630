import { Alert, Code, Loader, Stack, Text } from '@mantine/core';
import { SSO_ERRORS, type SsoTestResult as Result } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useSsoTest } from '../../../api/sso';

/**
 * What the last test sign-in came back with (the server sends the admin back here with
 * `?sso_test=<id>`, or `?sso_error=<code>` when it could not even start): the claims and what
 * would happen to that person here, or the failure's code and its technical detail. The server
 * sends codes; they are worded here, in the admin's language (the detail is shown as it came).
 */
export function SsoTestResult({
  organizationId,
  testId,
  startError,
}: {
  organizationId: string;
  testId: string | null;
  startError: string | null;
}) {
  const { t } = useTranslation('adminOrganizations');
  if (startError) return <Failed code={startError} detail={t('sso.testNotStarted')} />;
  if (!testId) return null;
  return <Fetched organizationId={organizationId} testId={testId} />;
}

function Fetched({ organizationId, testId }: { organizationId: string; testId: string }) {
  const { t } = useTranslation('adminOrganizations');
  const test = useSsoTest(organizationId, testId);
  if (test.isPending) return <Loader size="sm" aria-label={t('sso.testLoading')} />;
  if (test.error) {
    return (
      <Alert color="yellow" role="alert" title={t('sso.testResult')}>
        {t('sso.testExpired')}
      </Alert>
    );
  }
  return test.data.ok ? (
    <Passed result={test.data} />
  ) : (
    <Failed code={test.data.code ?? ''} detail={test.data.detail ?? ''} />
  );
}

const isKnownCode = (code: string): code is (typeof SSO_ERRORS)[number] =>
  (SSO_ERRORS as readonly string[]).includes(code);

function Failed({ code, detail }: { code: string; detail: string }) {
  const { t } = useTranslation('adminOrganizations');
  return (
    <Alert color="red" role="alert" title={t('sso.testFailed')}>
      <Stack gap={4}>
        {isKnownCode(code) ? <Text size="sm">{t(`sso.codes.${code}`)}</Text> : null}
        <Text size="sm">
          {t('sso.testCode')}: <Code>{code}</Code>
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('sso.testDetail')}: {detail}
        </Text>
      </Stack>
    </Alert>
  );
}

/** Outcomes in which the provider's answer passed every check but this console would refuse. */
const SIGNS_IN = new Set<Result['outcome']>(['existing_account', 'would_create']);

function Passed({ result }: { result: Result }) {
  const { t } = useTranslation('adminOrganizations');
  const claims = Object.entries(result.claims);
  const refused = result.outcome !== null && !SIGNS_IN.has(result.outcome);
  return (
    <Alert
      color={refused ? 'yellow' : 'green'}
      role="status"
      title={refused ? t('sso.testPassedRefused') : t('sso.testPassed')}
    >
      <Stack gap={4}>
        {result.outcome ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t(`sso.outcomes.${result.outcome}`, {
              email: result.email ?? '',
              role: result.role === 'auditor' ? t('sso.roleAuditor') : t('sso.roleClient'),
            })}
          </Text>
        ) : null}
        <Text size="sm" fw={500}>
          {result.protocol === 'saml' ? t('sso.testAttributes') : t('sso.testClaims')}
        </Text>
        <Stack gap={2}>
          {claims.map(([name, value]) => (
            <Text key={name} size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={700} inherit>
                {name}
              </Text>
              : {typeof value === 'string' ? value : JSON.stringify(value)}
            </Text>
          ))}
        </Stack>
      </Stack>
    </Alert>
  );
}
