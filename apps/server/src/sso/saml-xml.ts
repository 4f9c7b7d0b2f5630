import crypto from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import xpath from 'xpath';

/**
 * Reading SAML XML outside node-saml: the provider's metadata a platform admin pastes, and facts
 * of an assertion node-saml has already verified (its ID, recipient, times). Nothing read here
 * from an unverified document decides anything but which sign-in it claims to answer.
 */

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export class SamlSettingsError extends Error {}

/** A document without its DTD: no entity of the sender's is ever expanded. */
function parse(xml: string) {
  if (/<!DOCTYPE/i.test(xml)) throw new SamlSettingsError('The XML must not carry a DOCTYPE');
  const errors: string[] = [];
  const document = new DOMParser({
    errorHandler: (level: string, message: unknown) => {
      if (level !== 'warning') errors.push(String(message));
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0 || !document.documentElement) {
    throw new SamlSettingsError(`The XML could not be read: ${errors[0] ?? 'empty'}`);
  }
  return document;
}

const select = xpath.useNamespaces({ md: MD, ds: DS });
const attribute = (node: unknown, name: string) =>
  (node as { getAttribute?: (name: string) => string | null })?.getAttribute?.(name) ?? null;

/** Certificates as PEM blocks; each must be a readable X.509 certificate. */
export function certificatesOf(text: string): string[] {
  const bodies = text.includes('-----BEGIN CERTIFICATE-----')
    ? [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map(
        (match) => match[1]!,
      )
    : [text];
  return bodies.map((body) => {
    const base64 = body.replace(/\s+/g, '');
    const lines = base64.match(/.{1,64}/g) ?? [];
    const pem = `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
    try {
      new crypto.X509Certificate(pem);
    } catch {
      throw new SamlSettingsError('The certificate is not a readable X.509 certificate');
    }
    return pem;
  });
}

export interface IdpSettings {
  entityId: string | null;
  entryPoint: string;
  certificates: string[];
}

/** The provider's entity ID, its sign-on URL (redirect binding) and its signing certificates. */
export function readIdpMetadata(xml: string): IdpSettings {
  const document = parse(xml);
  const descriptor = select('//md:IDPSSODescriptor', document, true);
  if (!descriptor) throw new SamlSettingsError('The metadata has no IDPSSODescriptor');
  const entity = select('ancestor-or-self::md:EntityDescriptor', descriptor as Node, true);
  const service = select(
    `md:SingleSignOnService[@Binding='${REDIRECT_BINDING}']`,
    descriptor as Node,
    true,
  );
  const entryPoint = attribute(service, 'Location');
  if (!entryPoint) {
    throw new SamlSettingsError(
      'The metadata has no SingleSignOnService with the redirect binding',
    );
  }
  const keys = select(
    "md:KeyDescriptor[not(@use) or @use='signing']//ds:X509Certificate",
    descriptor as Node,
  ) as Node[];
  const certificates = keys.flatMap((key) => certificatesOf(key.textContent ?? ''));
  if (certificates.length === 0) throw new SamlSettingsError('The metadata has no signing key');
  return { entityId: attribute(entity, 'entityID'), entryPoint, certificates };
}

/** The request a posted response claims to answer (unverified: it only picks the sign-in). */
export function claimedInResponseTo(samlResponse: string): string | null {
  try {
    const document = parse(Buffer.from(samlResponse, 'base64').toString('utf8'));
    return attribute(document.documentElement, 'InResponseTo');
  } catch {
    return null;
  }
}

export interface AssertionFacts {
  id: string;
  issuer: string | null;
  recipients: string[];
  /** The latest time the assertion says it may be taken, if it says one. */
  notOnOrAfter: Date | null;
  authnInstant: Date | null;
}

const dateOf = (value: string | null) => (value ? new Date(value) : null);

/** Facts of an assertion node-saml verified (its signed XML). */
export function assertionFacts(assertionXml: string): AssertionFacts {
  const root = parse(assertionXml).documentElement!;
  const local = (name: string) => `*[local-name()='${name}']`;
  const confirmations = xpath.select(
    `${local('Subject')}/${local('SubjectConfirmation')}/${local('SubjectConfirmationData')}`,
    root,
  ) as Node[];
  const conditions = xpath.select1(local('Conditions'), root) as Node | undefined;
  const times = [conditions, ...confirmations]
    .map((node) => dateOf(attribute(node, 'NotOnOrAfter')))
    .filter((date): date is Date => date !== null && !Number.isNaN(date.getTime()));
  const issuer = xpath.select1(local('Issuer'), root) as Node | undefined;
  const statement = xpath.select1(local('AuthnStatement'), root) as Node | undefined;
  return {
    id: attribute(root, 'ID') ?? '',
    issuer: issuer?.textContent?.trim() ?? null,
    recipients: confirmations.map((node) => attribute(node, 'Recipient') ?? ''),
    notOnOrAfter: times.length ? new Date(Math.max(...times.map((date) => date.getTime()))) : null,
    authnInstant: dateOf(attribute(statement, 'AuthnInstant')),
  };
}

/** The Destination the response was addressed to, if it names one. */
export function responseDestination(samlResponse: string): string | null {
  const document = parse(Buffer.from(samlResponse, 'base64').toString('utf8'));
  return attribute(document.documentElement, 'Destination');
}
