import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant } from '../../test/factories.ts';

let t: TestApp;
let admin: Record<string, string>;
let client: Record<string, string>;
let buildsDir: string;
const APK = 'application/vnd.android.package-archive';
const INVALID = {
  error: 'download_link_invalid',
  message: 'Download link is invalid or has expired',
};

beforeAll(async () => {
  t = await createTestApp();
  admin = (await makeTenant(t, { role: 'admin' })).headers;
  client = (await makeTenant(t)).headers;
  buildsDir = path.join(t.config.dataDir, 'builds');
});
afterAll(() => t.close());
beforeEach(() => fs.rmSync(buildsDir, { recursive: true, force: true }));

const fakeApk = (size: number) =>
  Buffer.concat([Buffer.from('PK\x03\x04'), crypto.randomBytes(size - 4)]);

function upload(
  platform: string,
  body: Buffer,
  contentType = APK,
  headers = admin,
  version?: string,
) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/admin/vr-app/builds/${platform}${version ? `?version=${version}` : ''}`,
    headers: { ...headers, 'content-type': contentType },
    payload: body,
  });
}

async function links(headers: Record<string, string> = client) {
  const response = await t.app.inject({ url: '/v1/vr-app/download', headers });
  return response;
}

/** Follows a link as a browser would: no bearer token, only the signed query. */
function follow(url: string) {
  const { pathname, search } = new URL(url);
  return t.app.inject({ url: pathname + search });
}

describe('VR app builds and signed downloads', () => {
  it('uploads a build and serves the same bytes through the signed link', async () => {
    const bytes = fakeApk(300_000);
    const uploaded = await upload('oculus', bytes, APK, admin, '1.4.2');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toEqual({
      platform: 'oculus',
      version: '1.4.2',
      size_bytes: bytes.length,
      uploaded_at: t.clock.now().toISOString(),
    });
    // The build and what was said of it; no temporary file left.
    expect(fs.readdirSync(buildsDir).sort()).toEqual(['oculus.apk', 'oculus.json']);

    const list = await t.app.inject({ url: '/v1/admin/vr-app/builds', headers: admin });
    expect(list.json()).toEqual({ builds: [uploaded.json()] });

    const response = await links();
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      pico_url: null,
      // Staff see what they install: the build's version and size (issue 42).
      builds: [uploaded.json()],
      generated_at: t.clock.now().toISOString(),
      expires_in_seconds: 3600,
    });
    const expires = Math.floor(t.clock.now().getTime() / 1000) + 3600;
    expect(body.oculus_url).toMatch(
      new RegExp(
        `^http://localhost:80/v1/vr-app/files/oculus\\?expires=${expires}&signature=[0-9a-f]{64}$`,
      ),
    );

    const file = await follow(body.oculus_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe(APK);
    expect(file.headers['content-disposition']).toBe(
      'attachment; filename="vr-training-oculus.apk"',
    );
    expect(Number(file.headers['content-length'])).toBe(bytes.length);
    expect(file.rawPayload.equals(bytes)).toBe(true);
  });

  it('replaces a build with a new upload (octet-stream accepted too)', async () => {
    await upload('pico', fakeApk(1000));
    t.clock.advance(60_000);
    const newer = fakeApk(2000);
    const second = await upload('pico', newer, 'application/octet-stream');
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({
      size_bytes: 2000,
      uploaded_at: t.clock.now().toISOString(),
    });
    const { pico_url, oculus_url } = (await links()).json();
    expect(oculus_url).toBeNull();
    const file = await follow(pico_url);
    expect(file.rawPayload.equals(newer)).toBe(true);
    expect(file.headers['content-disposition']).toBe('attachment; filename="vr-training-pico.apk"');
  });

  it('counts a build placed in the builds directory by hand', async () => {
    fs.mkdirSync(buildsDir, { recursive: true });
    const bytes = fakeApk(500);
    fs.writeFileSync(path.join(buildsDir, 'pico.apk'), bytes);
    const list = await t.app.inject({ url: '/v1/admin/vr-app/builds', headers: admin });
    expect(list.json().builds).toEqual([
      expect.objectContaining({ platform: 'pico', size_bytes: 500 }),
    ]);
    const file = await follow((await links()).json().pico_url);
    expect(file.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers no links, not an error, when there is no build at all', async () => {
    const response = await links();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ oculus_url: null, pico_url: null, builds: [] });
    const list = await t.app.inject({ url: '/v1/admin/vr-app/builds', headers: admin });
    expect(list.json()).toEqual({ builds: [] });
  });

  it('refuses tampered, cross-platform and expired links with 403, and a vanished build with 404', async () => {
    await upload('oculus', fakeApk(100));
    await upload('pico', fakeApk(100));
    const { oculus_url, pico_url } = (await links()).json();

    const tampered = new URL(oculus_url);
    const signature = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
    expect((await follow(tampered.href)).json()).toEqual(INVALID);
    expect((await follow(tampered.href)).statusCode).toBe(403);

    const short = new URL(oculus_url);
    short.searchParams.set('signature', 'abc');
    expect((await follow(short.href)).statusCode).toBe(403);

    const longer = new URL(oculus_url);
    longer.searchParams.set('expires', String(Number(longer.searchParams.get('expires')) + 3600));
    expect((await follow(longer.href)).statusCode).toBe(403);

    const swapped = new URL(oculus_url);
    swapped.pathname = '/v1/vr-app/files/pico';
    expect((await follow(swapped.href)).statusCode).toBe(403);

    const missing = await t.app.inject({ url: '/v1/vr-app/files/oculus?expires=1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('querystring.signature is required');

    fs.rmSync(path.join(buildsDir, 'pico.apk'));
    const gone = await follow(pico_url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('not_found');

    t.clock.advance(3600 * 1000 + 1000);
    const expired = await follow(oculus_url);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual(INVALID);
  });

  it('builds the links from PUBLIC_URL or the request host', async () => {
    await upload('oculus', fakeApk(100));
    const response = await t.app.inject({
      url: '/v1/vr-app/download',
      headers: { ...client, host: 'console.example:8443' },
    });
    expect(response.json().oculus_url).toMatch(
      /^http:\/\/console\.example:8443\/v1\/vr-app\/files\/oculus\?/,
    );

    t.config.publicUrl = 'https://vr.example.com/';
    try {
      const configured = await links();
      expect(configured.json().oculus_url).toMatch(
        /^https:\/\/vr\.example\.com\/v1\/vr-app\/files\/oculus\?/,
      );
    } finally {
      t.config.publicUrl = undefined;
    }
  });

  it('keeps the previous build when an upload is cut off mid-way (over a real socket)', async () => {
    const original = fakeApk(1000);
    await upload('oculus', original);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/admin/vr-app/builds/oculus',
      headers: { ...admin, 'content-type': APK, 'content-length': String(1_000_000) },
    });
    const outcome = new Promise<string>((resolve) => {
      request.on('error', () => resolve('aborted'));
      request.on('response', (response) => resolve(`status ${response.statusCode}`));
    });
    request.write(fakeApk(64 * 1024));
    // Cut the connection once the server is writing the upload beside the build...
    await expect.poll(() => fs.readdirSync(buildsDir).length, { timeout: 10_000 }).toBe(3);
    request.destroy();
    expect(await outcome).toBe('aborted');
    // ...then it drops the partial file and the previous build stays.
    await expect
      .poll(() => fs.readdirSync(buildsDir).sort(), { timeout: 10_000 })
      .toEqual(['oculus.apk', 'oculus.json']);
    expect(fs.readFileSync(path.join(buildsDir, 'oculus.apk')).equals(original)).toBe(true);
  });

  it('validates uploads', async () => {
    const unknownPlatform = await upload('quest', fakeApk(100));
    expect(unknownPlatform.statusCode).toBe(400);
    expect(unknownPlatform.json()).toMatchObject({ error: 'validation_error' });
    expect(unknownPlatform.json().message).toContain('params.platform');

    const wrongType = await upload('oculus', fakeApk(100), 'text/plain');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error).toBe('unsupported_media_type');

    const noBody = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/vr-app/builds/oculus',
      headers: admin,
    });
    expect(noBody.statusCode).toBe(415);

    const empty = await upload('oculus', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'bad_request', message: 'The build file is empty' });
    expect(fs.readdirSync(buildsDir)).toEqual([]); // the temporary file is gone

    for (const notZip of [Buffer.from('MZ\x90\x00 a Windows program'), Buffer.from('PK')]) {
      const refused = await upload('oculus', notZip);
      expect(refused.statusCode).toBe(415);
      expect(refused.json()).toEqual({
        error: 'unsupported_media_type',
        message: 'The file is not an Android app (APK): it does not begin as a ZIP archive does',
      });
    }
    expect(fs.readdirSync(buildsDir)).toEqual([]);

    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/vr-app/builds/oculus',
      headers: { ...admin, 'content-type': APK, 'content-length': String(3 * 1024 ** 3) },
      payload: Buffer.alloc(10),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toBe('payload_too_large');

    const badFilePlatform = await t.app.inject({
      url: '/v1/vr-app/files/other?expires=1&signature=ab',
    });
    expect(badFilePlatform.statusCode).toBe(400);
  });

  it('keeps admin build routes from client tokens and the link route from anonymous callers', async () => {
    const upload403 = await upload('oculus', fakeApk(100), APK, client);
    expect(upload403.statusCode).toBe(403);
    expect(fs.existsSync(path.join(buildsDir, 'oculus.apk'))).toBe(false);
    const list403 = await t.app.inject({ url: '/v1/admin/vr-app/builds', headers: client });
    expect(list403.statusCode).toBe(403);
    const anonymous = await t.app.inject({ url: '/v1/vr-app/download' });
    expect(anonymous.statusCode).toBe(401);
  });
});
