import { Badge } from '@mantine/core';
import type { Certificate, CertificateStatus } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { inLanguage } from '@vrtc/contract';

/** A certificate's standing now, in words and colour. */
export const CERTIFICATE_STATUS_COLORS: Record<CertificateStatus, string> = {
  valid: 'green',
  expiring: 'yellow',
  expired: 'red',
  revoked: 'grape',
  superseded: 'gray',
};

export function CertificateBadge({
  status,
  size = 'lg',
}: {
  status: CertificateStatus;
  size?: string;
}) {
  const { t } = useTranslation('verify');
  return (
    <Badge
      size={size}
      color={CERTIFICATE_STATUS_COLORS[status]}
      variant="light"
      data-status={status}
      styles={{ label: { overflow: 'visible' } }}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

/** The qualification's name in the page's language (its English one, when it has one, in English). */
export function qualificationName(certificate: Certificate, language: string): string {
  return inLanguage(language, certificate.qualification_name, certificate.qualification_name_en);
}
