import type { Integration, IntegrationWithSecret } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant, type Tenant } from '../../test/factories.ts';
import {
  lrs,
  recordEnrolled,
  verifySignature,
  webhookReceiver,
  webhookTo,
  type Lrs,
  type WebhookReceiver,
} from '../../test/receivers.ts';
import { Dispatcher } from './dispatcher.ts';
import { openSecret, sealSecret } from './secret-box.ts';
import { encryptStoredSecrets } from './upkeep.ts';

/**
 * Webhook and LRS secrets at rest (issue 40): encrypted with a key outside the database, still
 * signing and authenticating as before; a rotated secret's overlap can be ended at once.
 */

let t: TestApp;
let receiver: WebhookReceiver;
let store: Lrs;
beforeAll(async () => {
  t = await createTestApp({ config: { outboundAllowPrivate: ['127.0.0.1'] } });
  receiver = await webhookReceiver();
  store = await lrs('lrs-key', 'lrs-password');
});
afterAll(async () => {
  await receiver.close();
  await store.close();
  await t.close();
});

const post = (tenant: Tenant, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: tenant.headers, payload });

const webhook = (tenant: Tenant) => webhookTo(t, tenant, `${receiver.url}/hook`);

const stored = (id: string) =>
  t.db
    .selectFrom('integrations')
    .select(['secret', 'previous_secret', 'xapi_secret'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** Commits one event for `tenant` and delivers it; answers what the receiver got. */
async function deliverOne(tenant: Tenant) {
  receiver.reset();
  await recordEnrolled(t, tenant);
  await new Dispatcher(contextOf(t)).runOnce();
  expect(receiver.received).toHaveLength(1);
  return receiver.received[0]!;
}

describe('integration secrets at rest', () => {
  it('keeps webhook and LRS secrets encrypted, and signs and signs in with them', async () => {
    const tenant = await makeTenant(t);
    const { integration, secret } = await webhook(tenant);
    const row = await stored(integration.id);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(secret!.slice('whsec_'.length));
    verifySignature(secret!, await deliverOne(tenant));

    const created = await post(tenant, '/v1/integrations', {
      kind: 'xapi',
      url: `${store.url}/xapi`,
      key: 'lrs-key',
      secret: 'lrs-password',
    });
    expect(created.statusCode, created.body).toBe(201);
    const lrsId = created.json<IntegrationWithSecret>().integration.id;
    expect((await stored(lrsId)).xapi_secret).toMatch(/^enc:v1:/);
    expect((await stored(lrsId)).xapi_secret).not.toContain('lrs-password');
    const tested = await post(tenant, `/v1/integrations/${lrsId}/test`);
    expect(tested.json()).toMatchObject({ ok: true, status_code: 200 });
  });

  it('encrypts the secrets stored before, and a key outside the database opens them', async () => {
    const tenant = await makeTenant(t);
    const { integration, secret } = await webhook(tenant);
    // As a row written before encryption at rest had it.
    await t.db
      .updateTable('integrations')
      .set({ secret })
      .where('id', '=', integration.id)
      .execute();
    verifySignature(secret!, await deliverOne(tenant));
    expect(await encryptStoredSecrets(contextOf(t))).toBeGreaterThan(0);
    const sealed = (await stored(integration.id)).secret!;
    expect(sealed).toMatch(/^enc:v1:/);
    verifySignature(secret!, await deliverOne(tenant));
    expect(openSecret(t.config, sealed)).toBe(secret);
    const elsewhere = { ...t.config, integrationSecretsKey: 'another key' };
    expect(() => openSecret(elsewhere, sealed)).toThrow();
    expect(openSecret(elsewhere, sealSecret(elsewhere, 'x'))).toBe('x');
  });

  it('ends a rotated secret’s overlap at once when the previous one is revoked, audited', async () => {
    const tenant = await makeTenant(t);
    const { integration, secret: oldSecret } = await webhook(tenant);
    const rotated = await post(tenant, `/v1/integrations/${integration.id}/rotate-secret`);
    const { secret: newSecret } = rotated.json<IntegrationWithSecret>();
    const during = await deliverOne(tenant);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    const revoked = await post(tenant, `/v1/integrations/${integration.id}/revoke-previous-secret`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<Integration>().previous_secret_expires_at).toBeNull();
    const after = await deliverOne(tenant);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verifySignature(newSecret!, after);
    expect(() => verifySignature(oldSecret!, after)).toThrow();
    const events = await t.app.inject({
      method: 'GET',
      url: `/v1/audit-events?action=integration.updated&target_id=${integration.id}`,
      headers: tenant.headers,
    });
    expect(events.body).toContain('previous_secret');
    const other = await makeTenant(t);
    const foreign = await post(other, `/v1/integrations/${integration.id}/revoke-previous-secret`);
    expect(foreign.statusCode).toBe(404);
  });
});
