import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as samlify from 'samlify';

/**
 * A real SAML identity provider for tests (samlify), on 127.0.0.1: its sign-on endpoint takes the
 * console's AuthnRequest by redirect, "signs the person in" (the `login` parameter, or a form
 * asking for it) and answers with a page that posts a signed response to the console's ACS, as
 * an identity provider does. What it answers can be bent per test (`answer`), for the attacks.
 */
const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/saml/${name}`, import.meta.url), 'utf8');
export const IDP_KEY = fixture('idp-key.pem');
export const IDP_CERT = fixture('idp-cert.pem');
export const ATTACKER_KEY = fixture('attacker-key.pem');
export const ATTACKER_CERT = fixture('attacker-cert.pem');

// The AuthnRequest's schema is the console's business; the provider reads what it needs.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });

export interface Answer {
  /** Milliseconds from now to the assertion's NotOnOrAfter (5 minutes). */
  expiresInMs?: number;
  assertionId?: string;
  /** The audience (entity ID) written into the assertion instead of the console's. */
  audience?: string;
  /** Signs with another key than the one the console trusts. */
  attacker?: boolean;
  /** When the person authenticated (now). */
  authnInstant?: Date;
}

export interface SamlIdp {
  entityId: string;
  metadata: string;
  /** What the next answer looks like (reset after each answer). */
  answer: Answer;
  /** The last AuthnRequest as the provider read it. */
  lastRequest?: { id: string; forceAuthn: boolean };
  close(): Promise<void>;
}

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

function idpEntity(entityId: string, location: string, attacker = false) {
  return samlify.IdentityProvider({
    entityID: entityId,
    privateKey: attacker ? ATTACKER_KEY : IDP_KEY,
    signingCert: attacker ? ATTACKER_CERT : IDP_CERT,
    singleSignOnService: [{ Binding: REDIRECT, Location: location }],
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    isAssertionEncrypted: false,
  });
}

const attr = (xml: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(xml)?.[1] ?? '';

/** The signed response to `requestId` for `email`, as the provider would post it. */
async function respond(
  idp: ReturnType<typeof idpEntity>,
  spMetadata: string,
  requestId: string,
  email: string,
  answer: Answer,
) {
  const sp = samlify.ServiceProvider({ metadata: spMetadata });
  const now = new Date();
  const until = new Date(now.getTime() + (answer.expiresInMs ?? 5 * 60 * 1000)).toISOString();
  const acs = attr(spMetadata, 'Location');
  const values = {
    ID: `_r${Math.random().toString(16).slice(2)}`,
    AssertionID: answer.assertionId ?? `_a${Math.random().toString(16).slice(2)}`,
    Destination: acs,
    Audience: answer.audience ?? attr(spMetadata, 'entityID'),
    SubjectRecipient: acs,
    Issuer: idp.entityMeta.getEntityID(),
    IssueInstant: now.toISOString(),
    StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
    ConditionsNotBefore: new Date(now.getTime() - 60_000).toISOString(),
    ConditionsNotOnOrAfter: until,
    SubjectConfirmationDataNotOnOrAfter: until,
    NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    NameID: email,
    InResponseTo: requestId,
    AuthnStatement:
      `<saml:AuthnStatement AuthnInstant="${(answer.authnInstant ?? now).toISOString()}" ` +
      'SessionIndex="_session"><saml:AuthnContext><saml:AuthnContextClassRef>' +
      'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport' +
      '</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>',
    AttributeStatement: '',
  };
  const { context } = await idp.createLoginResponse(
    sp,
    { extract: { request: { id: requestId } } },
    'post',
    { email },
    (template: string) => ({
      id: values.ID,
      context: samlify.SamlLib.replaceTagsByValue(template, values),
    }),
  );
  return { samlResponse: context as string, acs };
}

const page = (body: string) => `<!doctype html><html lang="en"><body>${body}</body></html>`;
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Starts the provider; `spMetadataUrl` is fetched from the console (app.inject) by `readSp`. */
export async function startSamlIdp(readSp: () => Promise<string>): Promise<SamlIdp> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/idp`;
  const idp = idpEntity(entityId, `${base}/sso`);
  const state: SamlIdp = {
    entityId,
    metadata: idp.getMetadata(),
    answer: {},
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server.on('request', (request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', base);
      const spMetadata = await readSp();
      const sp = samlify.ServiceProvider({ metadata: spMetadata });
      const query = Object.fromEntries(url.searchParams);
      const { extract } = await idp.parseLoginRequest(sp, 'redirect', { query });
      const requestId = extract.request!.id as string;
      const xml = samlify.Utility.inflateString(query.SAMLRequest!);
      state.lastRequest = { id: requestId, forceAuthn: /ForceAuthn="true"/.test(xml) };
      const login = url.searchParams.get('login');
      if (!login) {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        const hidden = Object.entries(query)
          .map(([k, v]) => `<input type="hidden" name="${k}" value="${escape(v)}">`)
          .join('');
        response.end(
          page(
            `<form method="get" action="/sso">${hidden}<label>Email <input name="login" ` +
              'type="email"></label><button>Sign in at the provider</button></form>',
          ),
        );
        return;
      }
      const answer = state.answer;
      state.answer = {};
      const signer = answer.attacker ? idpEntity(entityId, `${base}/sso`, true) : idp;
      const { samlResponse, acs } = await respond(signer, spMetadata, requestId, login, answer);
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        page(
          `<form id="post" method="post" action="${escape(acs)}"><input type="hidden" ` +
            `name="SAMLResponse" value="${escape(samlResponse)}"><button>Continue</button></form>` +
            '<script>document.getElementById("post").submit()</script>',
        ),
      );
    })().catch((error: unknown) => {
      response.statusCode = 400;
      response.end(String(error));
    });
  });
  return state;
}

/** The SAMLResponse of the provider's answer page. */
export const samlResponseOf = (html: string) =>
  /name="SAMLResponse" value="([^"]+)"/
    .exec(html)?.[1]
    ?.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))) ?? '';
