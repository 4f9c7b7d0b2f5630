import type { SsoConfig, SsoConfigBody } from '@vrtc/contract';

/** What the single sign-on form holds; the client secret is write-only (empty keeps none). */
export interface SsoFormValues {
  protocol: 'oidc' | 'saml';
  issuer: string;
  client_id: string;
  client_secret: string;
  idp_metadata_xml: string;
  entry_point: string;
  idp_certificate: string;
  domains: string;
  enforced: boolean;
  jit: boolean;
  default_role: 'client' | 'auditor';
}

export function formValuesOf(config: SsoConfig | null | undefined): SsoFormValues {
  return {
    protocol: config?.protocol ?? 'oidc',
    issuer: config?.issuer ?? '',
    client_id: config?.client_id ?? '',
    client_secret: '',
    idp_metadata_xml: '',
    entry_point: config?.entry_point ?? '',
    idp_certificate: config?.idp_certificate ?? '',
    domains: (config?.email_domains ?? []).join(', '),
    enforced: config?.enforced ?? false,
    jit: config?.jit ?? false,
    default_role: config?.default_role ?? 'client',
  };
}

/** The domains as typed (commas, spaces or lines between them), lower case, each once. */
export function domainsOf(text: string): string[] {
  const all = text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  return [...new Set(all)];
}

/** The PUT body: the whole configuration for its protocol. */
export function bodyOf(values: SsoFormValues): SsoConfigBody {
  const common = {
    email_domains: domainsOf(values.domains),
    enforced: values.enforced,
    jit: values.jit,
    default_role: values.default_role,
  };
  if (values.protocol === 'oidc') {
    return {
      protocol: 'oidc',
      issuer: values.issuer.trim(),
      client_id: values.client_id.trim(),
      client_secret: values.client_secret,
      ...common,
    };
  }
  const xml = values.idp_metadata_xml.trim();
  return xml
    ? { protocol: 'saml', idp_metadata_xml: xml, ...common }
    : {
        protocol: 'saml',
        entry_point: values.entry_point.trim(),
        idp_certificate: values.idp_certificate.trim(),
        ...common,
      };
}
