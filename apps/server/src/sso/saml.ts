import crypto from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { assertionFacts, responseDestination } from './saml-xml.ts';

/**
 * SAML 2.0 as the console's service provider, with node-saml (decision 034): the AuthnRequest by
 * redirect, the SP metadata, and the checks of a posted response. node-saml checks the signature
 * (of the response or of its one assertion; signature wrapping is refused because only the
 * verified XML is read), the audience, the times with SKEW_MS and InResponseTo; the recipient,
 * the issuer and the assertion's single use are checked here and by the caller.
 */
export const SKEW_MS = 2 * 60 * 1000;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export interface SamlProvider {
  entityId: string | null;
  entryPoint: string;
  certificates: string[];
}

export interface SamlEndpoints {
  /** The console's entity ID for this organisation: its metadata's URL. */
  spEntityId: string;
  acsUrl: string;
}

/**
 * A cache that knows one request ID: the sign-in the response was matched to (the database keeps
 * the requests; a new one's ID is handed to `saved`).
 */
function oneRequest(requestId: string | null, saved?: (id: string) => void): CacheProvider {
  return {
    saveAsync: async (key) => {
      saved?.(key);
      return null;
    },
    // node-saml reads the value as the request's time; the database already held it to ten minutes.
    getAsync: async (key) =>
      requestId !== null && key === requestId ? new Date().toISOString() : null,
    removeAsync: async () => null,
  };
}

function serviceProvider(
  provider: SamlProvider,
  endpoints: SamlEndpoints,
  options: {
    requestId?: string | null;
    forceAuthn?: boolean;
    wantAssertionsSigned?: boolean;
    saved?: (id: string) => void;
  },
) {
  return new SAML({
    callbackUrl: endpoints.acsUrl,
    entryPoint: provider.entryPoint,
    issuer: endpoints.spEntityId,
    audience: endpoints.spEntityId,
    idpCert: provider.certificates,
    // The response or its assertion: either signature will do, and one of them must be there.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: options.wantAssertionsSigned ?? false,
    acceptedClockSkewMs: SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: oneRequest(options.requestId ?? null, options.saved),
    forceAuthn: options.forceAuthn ?? false,
    identifierFormat: EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => `_${crypto.randomBytes(20).toString('hex')}`,
  });
}

/** The provider's sign-on URL with a fresh AuthnRequest, and that request's ID. */
export async function authnRequest(
  provider: SamlProvider,
  endpoints: SamlEndpoints,
  forceAuthn: boolean,
): Promise<{ url: string; requestId: string }> {
  let requestId: string | undefined;
  const sp = serviceProvider(provider, endpoints, {
    forceAuthn,
    saved: (id) => {
      requestId = id;
    },
  });
  const url = await sp.getAuthorizeUrlAsync('', undefined, {});
  if (!requestId) throw new Error('The AuthnRequest has no ID');
  return { url, requestId };
}

/** What the provider's admin imports: the entity ID, the ACS, signed assertions wanted. */
export function spMetadata(provider: SamlProvider, endpoints: SamlEndpoints): string {
  return serviceProvider(provider, endpoints, {
    wantAssertionsSigned: true,
  }).generateServiceProviderMetadata(null, null);
}

export interface SamlIdentity {
  email: string | null;
  claims: Record<string, unknown>;
  assertionId: string;
  /** Until when the assertion could be taken: the replay store keeps it that long. */
  usableUntil: Date;
  authnInstant: Date | null;
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

function emailOf(profile: Profile): string | null {
  for (const name of EMAIL_ATTRIBUTES) {
    const value = profile[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.includes('@')) return first;
  }
  return profile.nameID?.includes('@') ? profile.nameID : null;
}

/**
 * The posted response checked in full, as the answer to `requestId`; throws with the reason of
 * the first check that failed.
 */
export async function validateResponse(
  provider: SamlProvider,
  endpoints: SamlEndpoints,
  samlResponse: string,
  requestId: string,
  now: Date,
): Promise<SamlIdentity> {
  const sp = serviceProvider(provider, endpoints, { requestId });
  const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse });
  if (!profile?.getAssertionXml) throw new Error('The response carries no assertion');
  const facts = assertionFacts(profile.getAssertionXml());
  const destination = responseDestination(samlResponse);
  if (destination !== null && destination !== endpoints.acsUrl) {
    throw new Error(`The response is addressed to ${destination}, not this console`);
  }
  if (facts.recipients.length === 0 || facts.recipients.some((r) => r !== endpoints.acsUrl)) {
    throw new Error('The assertion’s recipient is not this console’s ACS');
  }
  if (provider.entityId !== null && facts.issuer !== provider.entityId) {
    throw new Error(`The assertion was issued by ${facts.issuer ?? 'nobody'}, not the provider`);
  }
  if (!facts.id) throw new Error('The assertion has no ID');
  const until = facts.notOnOrAfter ?? new Date(now.getTime() + 10 * 60 * 1000);
  const {
    getAssertionXml: _xml,
    getAssertion: _assertion,
    getSamlResponseXml: _response,
    ...rest
  } = profile;
  return {
    email: emailOf(profile),
    claims: rest,
    assertionId: facts.id,
    usableUntil: new Date(until.getTime() + SKEW_MS),
    authnInstant: facts.authnInstant,
  };
}
