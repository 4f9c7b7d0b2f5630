import { Button, Center, Group, Loader, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { Certificate } from '@vrtc/contract';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCertificate, verifyUrl } from '../../api/certificates';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { errorText } from '../../lib/error-text';
import { formatDate } from '../../lib/format';
import classes from './CertificatePage.module.css';
import { CertificateBadge, qualificationName } from './certificate-parts';

/** The certificate as printed: holder, qualification, organisation, dates and the QR to check it. */
function Sheet({ code, certificate }: { code: string; certificate: Certificate }) {
  const { t, i18n } = useTranslation('verify');
  const url = verifyUrl(window.location.origin, code);
  return (
    <article className={classes.sheet} data-testid="certificate-sheet">
      <div>
        <h1 className={classes.heading}>{t('certificate.heading')}</h1>
        <p className={classes.lead}>{certificate.organization_name}</p>
      </div>
      <div>
        <p className={classes.lead}>{t('certificate.certifies')}</p>
        <p className={classes.holder}>{certificate.holder_name}</p>
        <p className={classes.lead}>{t('certificate.holds')}</p>
        <p className={classes.qualification}>{qualificationName(certificate, i18n.language)}</p>
      </div>
      <div className={classes.bottom}>
        <dl className={classes.facts}>
          <dt>{t('validFrom')}</dt>
          <dd>{formatDate(certificate.valid_from, i18n.language)}</dd>
          <dt>{t('validUntil')}</dt>
          <dd>
            {certificate.valid_until
              ? formatDate(certificate.valid_until, i18n.language)
              : t('noExpiry')}
          </dd>
          <dt>{t('certificate.code')}</dt>
          <dd style={{ fontFamily: 'monospace', fontSize: '0.85em' }}>{code}</dd>
        </dl>
        <div className={classes.qr}>
          <QRCodeSVG value={url} size={128} level="M" title={t('certificate.qrTitle')} />
          <div>{t('certificate.scan')}</div>
        </div>
      </div>
    </article>
  );
}

/**
 * A printable certificate of one award (/certificates/:code): an A4 landscape sheet in the
 * language chosen (Russian or English, the switch above it), with a QR code of its public verify
 * page. It reads the same public answer as that page, so it needs no sign-in and no console around
 * it; the trainee's page links to it per award.
 */
export function CertificatePage() {
  const { code = '' } = useParams();
  const { t } = useTranslation('verify');
  const lookup = useCertificate(code);
  return (
    <main className={classes.desk}>
      <Group justify="space-between" mb="md" className={classes.noPrint} maw="297mm" mx="auto">
        <Group gap="sm">
          <Button
            leftSection={<IconPrinter size={16} />}
            disabled={lookup.state !== 'found'}
            onClick={() => window.print()}
          >
            {t('certificate.print')}
          </Button>
          {lookup.state === 'found' ? (
            <CertificateBadge status={lookup.certificate.status} size="md" />
          ) : null}
        </Group>
        <LanguageSwitcher />
      </Group>
      {lookup.state === 'loading' ? (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : lookup.state === 'failed' ? (
        <Text ta="center" role="alert" py="xl">
          {errorText(lookup.error, t('failedText'))}
        </Text>
      ) : (
        <Sheet code={code} certificate={lookup.certificate} />
      )}
    </main>
  );
}
