import { Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCertificateOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCertificate } from '../../api/certificates';
import { Fact } from '../../components/Fact';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { ApiError } from '../../lib/api-error';
import { errorText } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import { CertificateBadge, qualificationName } from './certificate-parts';

/**
 * The public page a certificate's QR code opens (/verify/:code): no sign-in, made for a site
 * supervisor's phone. It shows whose the certificate is, for what, from which organisation, from
 * when until when, and whether it holds now; an unknown code says so plainly. It stands outside
 * the signed-in layout and loads none of it.
 */
export function VerifyPage() {
  const { code = '' } = useParams();
  const { t, i18n } = useTranslation('verify');
  const lookup = useCertificate(code);
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack w="100%" maw={520} gap="md">
        <Group justify="space-between">
          <Title order={1} size="h3">
            {t('title')}
          </Title>
          <LanguageSwitcher />
        </Group>
        <Card withBorder radius="lg" p="lg" aria-live="polite">
          {lookup.state === 'loading' ? (
            <Center py="xl">
              <Loader aria-label={t('common:loading')} />
            </Center>
          ) : lookup.state === 'failed' ? (
            <Stack align="center" gap="xs" py="md" data-testid="verify-not-found">
              <IconCertificateOff size={40} aria-hidden />
              <Title order={2} size="h4">
                {lookup.error instanceof ApiError && lookup.error.code === 'not_found'
                  ? t('notFoundTitle')
                  : t('failedTitle')}
              </Title>
              <Text ta="center" size="sm">
                {lookup.error instanceof ApiError && lookup.error.code === 'not_found'
                  ? t('notFoundText')
                  : errorText(lookup.error, t('failedText'))}
              </Text>
            </Stack>
          ) : (
            <Stack gap="md" data-testid="verify-certificate">
              <Group justify="space-between" align="center">
                <Title order={2} size="h4">
                  {qualificationName(lookup.certificate, i18n.language)}
                </Title>
                <CertificateBadge status={lookup.certificate.status} />
              </Group>
              <Text size="sm">{t(`statusText.${lookup.certificate.status}`)}</Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }} component="dl" m={0} spacing="sm">
                <Fact label={t('holder')}>{lookup.certificate.holder_name}</Fact>
                <Fact label={t('organization')}>{lookup.certificate.organization_name}</Fact>
                <Fact label={t('validFrom')}>
                  {formatDate(lookup.certificate.valid_from, i18n.language)}
                </Fact>
                <Fact label={t('validUntil')}>
                  {lookup.certificate.valid_until
                    ? formatDate(lookup.certificate.valid_until, i18n.language)
                    : t('noExpiry')}
                </Fact>
              </SimpleGrid>
            </Stack>
          )}
        </Card>
        <Text size="xs" c="dimmed" ta="center">
          {t('footer')}
        </Text>
      </Stack>
    </Center>
  );
}
