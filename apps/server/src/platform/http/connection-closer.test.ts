import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createTestApp } from '../../../test/harness.ts';

/**
 * app.close() ends once the requests in flight are answered, whatever connections clients left
 * open (a held push call's connection has its own test in headset/device-push.test.ts).
 */
it('closes with a kept-alive connection and one no request was ever sent on', async () => {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  // Kept alive by the client's pool after its answer.
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  // Connected, then nothing sent: a browser's preconnect, a call abandoned while connecting.
  const silent = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => silent.once('connect', resolve));
  const ended = new Promise((resolve) => silent.once('close', resolve));

  await t.close();
  await ended;
});
