import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { LoginAnswer, MfaChallenge, MfaStatus, PasskeyRegistered } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant, TEST_PASSWORD } from '../../test/factories.ts';

/**
 * Passkeys over HTTP (issue 40 item 12, decision 031), without a browser: the test is the
 * authenticator. It makes a P-256 key with node:crypto, answers the registration options with a
 * "none" attestation (CBOR through @simplewebauthn's own encoder) and the sign-in's options with
 * a signed assertion, as a browser's navigator.credentials would, and drives the real routes. A
 * page of another origin, another site's relying party or an answer to another challenge is
 * refused. The browser's way through (Chromium's virtual authenticator) is in e2e/mfa.e2e.test.ts.
 */
const PUBLIC_URL = 'https://vr.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { publicUrl: PUBLIC_URL } });
});
afterAll(() => t.close());

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

/** A passkey held by the test: its id, its key pair and its signature counter. */
function newAuthenticator() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  // The credential's public key as COSE (RFC 9053): EC2, ES256, P-256, x, y.
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  return { id: crypto.randomBytes(32), privateKey, cose, counter: 0 };
}
type Authenticator = ReturnType<typeof newAuthenticator>;

/** Authenticator data (WebAuthn §6.1): the RP id's hash, flags (user present, verified), counter. */
function authenticatorData(rpId: string, counter: number, attested?: Uint8Array) {
  const flags = 0x01 | 0x04 | (attested ? 0x40 : 0);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
}

const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

interface Page {
  origin?: string;
  rpId?: string;
}

/** What navigator.credentials.create answers: a "none" attestation of a new credential. */
function attestation(key: Authenticator, options: { challenge: string }, page: Page = {}) {
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(key.id.length);
  const attested = Buffer.concat([Buffer.alloc(16), idLength, key.id, key.cose]);
  const attestationObject = isoCBOR.encode(
    new Map<string, string | Map<string, never> | Uint8Array>([
      ['fmt', 'none'],
      ['attStmt', new Map<string, never>()],
      ['authData', authenticatorData(page.rpId ?? 'vr.example.test', 0, attested)],
    ]),
  );
  const clientDataJSON = clientData(
    'webauthn.create',
    options.challenge,
    page.origin ?? PUBLIC_URL,
  );
  return JSON.stringify({
    id: b64url(key.id),
    rawId: b64url(key.id),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientDataJSON),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  });
}

/** What navigator.credentials.get answers: the authenticator's signature over the challenge. */
function assertion(key: Authenticator, challenge: string, page: Page = {}) {
  key.counter += 1;
  const data = authenticatorData(page.rpId ?? 'vr.example.test', key.counter);
  const clientDataJSON = clientData('webauthn.get', challenge, page.origin ?? PUBLIC_URL);
  const signature = crypto.sign(
    'sha256',
    Buffer.concat([data, sha256(clientDataJSON)]),
    key.privateKey,
  );
  return JSON.stringify({
    id: b64url(key.id),
    rawId: b64url(key.id),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(data),
      signature: b64url(signature),
    },
    clientExtensionResults: {},
  });
}

const call = (method: 'GET' | 'POST', url: string, headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

interface CreationOptions {
  challenge: string;
  rp: { id: string };
}

async function registrationOptions(headers: Record<string, string>) {
  const answer = await call('POST', '/v1/me/mfa/passkeys/options', headers);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ options: CreationOptions }>().options;
}

const register = (headers: Record<string, string>, credential: string) =>
  call('POST', '/v1/me/mfa/passkeys', headers, { name: 'Test key', credential });

/** The sign-in's second step: its token, and the passkey options it hands the browser. */
async function passkeyChallenge(email: string) {
  const login = await call('POST', '/v1/auth/login', {}, { email, password: TEST_PASSWORD });
  const challenge = login.json<LoginAnswer>() as MfaChallenge;
  expect(challenge).toMatchObject({ mfa_required: true });
  expect(challenge.methods).toContain('passkey');
  const options = await call(
    'POST',
    '/v1/auth/mfa/passkey-options',
    {},
    {
      mfa_token: challenge.mfa_token,
    },
  );
  expect(options.statusCode, options.body).toBe(200);
  const { challenge: webauthn, rpId } = options.json<{
    options: { challenge: string; rpId: string };
  }>().options;
  expect(rpId).toBe('vr.example.test');
  return { mfaToken: challenge.mfa_token, webauthn };
}

const verify = (mfaToken: string, passkey: string) =>
  call('POST', '/v1/auth/mfa/verify', {}, { mfa_token: mfaToken, passkey });

describe('a passkey, without a browser', () => {
  it('is registered from a "none" attestation, then signs in as the second factor', async () => {
    const tenant = await makeTenant(t);
    const key = newAuthenticator();
    const options = await registrationOptions(tenant.headers);
    expect(options.rp.id).toBe('vr.example.test');

    const added = await register(tenant.headers, attestation(key, options));
    expect(added.statusCode, added.body).toBe(201);
    const { passkey, recovery_codes } = added.json<PasskeyRegistered>();
    expect(passkey).toMatchObject({ name: 'Test key', last_used_at: null });
    expect(recovery_codes).toHaveLength(10);
    const status = (await call('GET', '/v1/me/mfa', tenant.headers)).json<MfaStatus>();
    expect(status.passkeys.map((each) => each.id)).toEqual([passkey.id]);

    const { mfaToken, webauthn } = await passkeyChallenge(tenant.account.email);
    const signedIn = await verify(mfaToken, assertion(key, webauthn));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { token } = signedIn.json<{ token: string }>();
    expect((await call('GET', '/v1/me', bearer(token))).statusCode).toBe(200);
    const used = (await call('GET', '/v1/me/mfa', tenant.headers)).json<MfaStatus>();
    expect(used.passkeys[0]!.last_used_at).toBe(t.clock.now().toISOString());
    // The sign-in step worked once: the same answer again is refused.
    expect((await verify(mfaToken, assertion(key, webauthn))).statusCode).toBe(401);
  });

  it('refuses a registration made on another origin or for another site', async () => {
    const tenant = await makeTenant(t);
    const key = newAuthenticator();
    const options = await registrationOptions(tenant.headers);
    for (const page of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const refused = await register(tenant.headers, attestation(key, options, page));
      expect(refused.statusCode, JSON.stringify(page)).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'mfa_invalid' });
    }
    // An answer to a challenge the server never gave is refused as well.
    const other = await register(
      tenant.headers,
      attestation(key, { challenge: b64url(sha256('x')) }),
    );
    expect(other.statusCode).toBe(401);
    expect((await call('GET', '/v1/me/mfa', tenant.headers)).json<MfaStatus>().passkeys).toEqual(
      [],
    );
  });

  it('refuses an assertion of another challenge, another origin or another key', async () => {
    const tenant = await makeTenant(t);
    const key = newAuthenticator();
    const options = await registrationOptions(tenant.headers);
    expect((await register(tenant.headers, attestation(key, options))).statusCode).toBe(201);
    const { mfaToken, webauthn } = await passkeyChallenge(tenant.account.email);

    const stranger = { ...newAuthenticator(), id: key.id };
    for (const passkey of [
      assertion(key, b64url(crypto.randomBytes(32))),
      assertion(key, webauthn, { origin: 'https://evil.example' }),
      assertion(key, webauthn, { rpId: 'evil.example' }),
      assertion(stranger, webauthn),
    ]) {
      const refused = await verify(mfaToken, passkey);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'mfa_invalid' });
    }
    // The refusals left the sign-in open for the right answer.
    expect((await verify(mfaToken, assertion(key, webauthn))).statusCode).toBe(200);
  });
});
