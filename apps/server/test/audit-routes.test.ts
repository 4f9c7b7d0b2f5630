import crypto from 'node:crypto';
import {
  AUDIT_REDACTED,
  routePath,
  routes,
  type AuditAction,
  type AuditEvent,
  type AuditEventPage,
  type RouteName,
} from '@vrtc/contract';
import type { InjectOptions } from 'fastify';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSweep } from '../src/headset/sweeper.ts';
import { recordOutbox } from '../src/outbox/outbox.ts';
import { BACKGROUND, contextOf, createTestApp, type TestApp } from './harness.ts';
import {
  TEST_PASSWORD,
  makeAccount,
  makeDevice,
  makeEnrolledDevice,
  makeOrganization,
  makeScenarioTree,
  makeStartableSetup,
  makeTenant,
  makeVrUser,
} from './factories.ts';

/**
 * Every call of the API that changes something writes its audit event: this walks the contract's
 * route map and, for each POST, PUT and DELETE route, makes a valid call and looks for the event
 * of the route's action, with the caller, the request's facts and the change's [before, after].
 * A new mutating route fails here until it writes its event and has its row in CALLS.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
let staff: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  // Integrations are created towards this machine: the test receivers listen on 127.0.0.1.
  t = await createTestApp({ config: { outboundAllowPrivate: ['127.0.0.1'] } });
  admin = await makeTenant(t, { role: 'admin' });
  staff = await makeTenant(t);
});
afterAll(() => t.close());

type Tenant = typeof staff;

interface Call {
  /** Who calls: `staff` (a client account), `admin`, or a headset's headers. */
  as: Tenant | { headers: Record<string, string> } | 'nobody';
  params?: Record<string, string>;
  query?: string;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
}

interface Expected {
  action: AuditAction;
  /** Prepares what the call needs and says how to make it. */
  call: () => Promise<Call>;
  /** Part of the event's changes, [before, after] per field. */
  changes?: Record<string, [unknown, unknown]>;
  actor?: 'account' | 'headset' | 'system';
}

const SSO_BODY = {
  protocol: 'oidc',
  issuer: 'https://login.example.com',
  client_id: 'console',
  client_secret: 's3cret-of-the-provider',
  enforced: false,
  jit: true,
  default_role: 'client',
} as const;
const apk = Buffer.concat([Buffer.from('PK\x03\x04'), crypto.randomBytes(60)]);
const soon = () => new Date(t.clock.now().getTime() + 30 * 24 * 3600 * 1000).toISOString();

/** A session running on an enrolled headset of the staff's organisation. */
async function runningSession() {
  const setup = await makeStartableSetup(t, staff.organization.id);
  const headset = await makeEnrolledDevice(t.db, staff.organization.id, {
    last_seen_at: t.clock.now(),
  });
  const started = await t.app.inject({
    method: 'POST',
    url: '/v1/sessions/start',
    headers: staff.headers,
    payload: { device_id: headset.device.id, level_id: setup.level.id, vr_user_name: 'Runner' },
  });
  expect(started.statusCode, started.body).toBe(201);
  return { id: started.json<{ id: string }>().id, headset };
}

const totpCode = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: t.clock.now().getTime(),
  });

/** A new account with its authenticator app confirmed (decision 031), and the app's secret. */
async function withAuthenticator() {
  const tenant = await makeTenant(t);
  const started = await t.app.inject({
    method: 'POST',
    url: '/v1/me/mfa/totp',
    headers: tenant.headers,
  });
  const { secret } = started.json<{ secret: string }>();
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/v1/me/mfa/totp/confirm',
    headers: tenant.headers,
    payload: { code: totpCode(secret) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // The next code is another step's: a code is taken once.
  t.clock.advance(30_000);
  return { tenant, secret };
}

/**
 * How to make a valid call of each mutating route, and the event it must leave. The heartbeat is
 * the one route without an event: it changes nothing anyone asks about, and it is the hot path
 * (decision 002); a headset's liveness is its last-seen time.
 */
const CALLS: Record<string, Expected | { exempt: string }> = {
  createVrUser: {
    action: 'vr_user.created',
    call: async () => ({ as: staff, payload: { name: 'Ann Trainee', notes: 'night shift' } }),
    changes: { name: [null, 'Ann Trainee'], notes: [null, 'night shift'] },
  },
  updateVrUser: {
    action: 'vr_user.updated',
    call: async () => {
      const vrUser = await makeVrUser(t.db, staff.organization.id, { name: 'Before' });
      return { as: staff, params: { id: vrUser.id }, payload: { name: 'After' } };
    },
    changes: { name: ['Before', 'After'] },
  },
  deleteVrUser: {
    action: 'vr_user.deleted',
    call: async () => {
      const vrUser = await makeVrUser(t.db, staff.organization.id, { name: 'Leaving' });
      return { as: staff, params: { id: vrUser.id } };
    },
    changes: { name: ['Leaving', null] },
  },
  login: {
    action: 'auth.login',
    call: async () => ({
      as: 'nobody',
      payload: { email: staff.account.email, password: TEST_PASSWORD },
    }),
  },
  logout: {
    action: 'auth.logout',
    call: async () => {
      const tenant = await makeTenant(t);
      return { as: tenant };
    },
  },
  changeOwnPassword: {
    action: 'auth.password_changed',
    call: async () => ({
      as: await makeTenant(t),
      payload: { current_password: TEST_PASSWORD, new_password: 'my-own-new-pw-7' },
    }),
    changes: { password: [AUDIT_REDACTED, AUDIT_REDACTED] },
  },
  putOwnSettings: {
    action: 'account.updated',
    call: async () => ({ as: await makeTenant(t), payload: { qualification_digest: false } }),
    changes: { qualification_digest: [true, false] },
  },
  createApiToken: {
    action: 'api_token.created',
    call: async () => ({ as: staff, payload: { name: 'Nightly export', expires_at: soon() } }),
    changes: { name: [null, 'Nightly export'] },
  },
  revokeApiToken: {
    action: 'api_token.revoked',
    call: async () => {
      const made = await t.app.inject({
        method: 'POST',
        url: '/v1/me/api-tokens',
        headers: staff.headers,
        payload: { name: 'Old script' },
      });
      expect(made.statusCode, made.body).toBe(201);
      return { as: staff, params: { id: made.json<{ id: string }>().id } };
    },
  },
  startTotp: { exempt: 'an enrolment begun changes nothing in force until its confirmation' },
  confirmTotp: {
    action: 'mfa.totp_enrolled',
    call: async () => {
      const tenant = await makeTenant(t);
      const started = await t.app.inject({
        method: 'POST',
        url: '/v1/me/mfa/totp',
        headers: tenant.headers,
      });
      return { as: tenant, payload: { code: totpCode(started.json<{ secret: string }>().secret) } };
    },
    changes: { totp: [false, true] },
  },
  removeTotp: {
    action: 'mfa.totp_removed',
    call: async () => ({
      as: (await withAuthenticator()).tenant,
      payload: { password: TEST_PASSWORD },
    }),
    changes: { totp: [true, false] },
  },
  renewRecoveryCodes: {
    action: 'mfa.recovery_codes_renewed',
    call: async () => {
      const { tenant, secret } = await withAuthenticator();
      return { as: tenant, payload: { code: totpCode(secret) } };
    },
    changes: { recovery_codes_left: [10, 10] },
  },
  passkeyRegistrationOptions: {
    exempt: 'keeps a WebAuthn challenge for five minutes; nothing is in force until registered',
  },
  addPasskey: {
    exempt:
      'needs an authenticator’s signed answer: its mfa.passkey_added event is checked by the ' +
      'browser test with Chromium’s virtual authenticator (e2e/mfa.e2e.test.ts)',
  },
  removePasskey: {
    action: 'mfa.passkey_removed',
    call: async () => {
      const tenant = await makeTenant(t);
      const passkey = await t.db
        .insertInto('mfa_passkeys')
        .values({
          account_id: tenant.account.id,
          credential_id: `credential-${crypto.randomUUID()}`,
          public_key: 'pQECAyYgASFYIA',
          name: 'Desk key',
          created_at: t.clock.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { as: tenant, params: { id: passkey.id } };
    },
    changes: { passkey: ['Desk key', null] },
  },
  verifyMfa: {
    action: 'auth.login',
    call: async () => {
      const { tenant, secret } = await withAuthenticator();
      const step = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: tenant.account.email, password: TEST_PASSWORD },
      });
      const { mfa_token } = step.json<{ mfa_token: string }>();
      return { as: 'nobody', payload: { mfa_token, code: totpCode(secret) } };
    },
    changes: { second_factor: [null, 'totp'] },
  },
  mfaPasskeyOptions: {
    exempt: 'keeps a WebAuthn challenge on the sign-in’s step; the sign-in is audited at its end',
  },
  resetAccountMfa: {
    action: 'mfa.reset',
    call: async () => ({
      as: admin,
      params: { id: (await withAuthenticator()).tenant.account.id },
      payload: { reason: 'Lost phone' },
    }),
    changes: { reason: [null, 'Lost phone'], totp: [true, false] },
  },
  putMfaPolicy: {
    action: 'mfa.policy_updated',
    call: async () => ({ as: admin, payload: { admins_required: false } }),
    changes: { admins_required: [false, false] },
  },
  deleteDevice: {
    action: 'device.deleted',
    call: async () => {
      const device = await makeDevice(t.db, staff.organization.id, { name: 'Old headset' });
      return { as: staff, params: { id: device.id } };
    },
    changes: { name: ['Old headset', null] },
  },
  setMovementType: {
    action: 'device.updated',
    call: async () => {
      const device = await makeDevice(t.db, staff.organization.id, { movement_type: 'slide' });
      return { as: staff, params: { id: device.id }, payload: { movement_type: 'teleport' } };
    },
    changes: { movement_type: ['slide', 'teleport'] },
  },
  currentEnrollmentCode: {
    action: 'enrollment_code.issued',
    call: async () => ({ as: await makeTenant(t) }),
    changes: { code: [null, AUDIT_REDACTED] },
  },
  renewEnrollmentCode: {
    action: 'enrollment_code.renewed',
    call: async () => ({ as: staff }),
    changes: { code: [null, AUDIT_REDACTED] },
  },
  revokeEnrollmentCode: {
    action: 'enrollment_code.revoked',
    call: async () => {
      const tenant = await makeTenant(t);
      await t.app.inject({
        method: 'POST',
        url: '/v1/devices/enrollment-code',
        headers: tenant.headers,
      });
      return { as: tenant };
    },
    changes: { code: [AUDIT_REDACTED, null] },
  },
  startSession: {
    action: 'session.started',
    call: async () => {
      const setup = await makeStartableSetup(t, staff.organization.id);
      return {
        as: staff,
        payload: { device_id: setup.device.id, level_id: setup.level.id, vr_user_name: 'Bo' },
      };
    },
    changes: { status: [null, 'active'], vr_user_name: [null, 'Bo'] },
  },
  cancelSession: {
    action: 'session.cancelled',
    call: async () => ({ as: staff, params: { id: (await runningSession()).id } }),
    changes: { status: ['active', 'cancelled'] },
  },
  enroll: {
    action: 'device.enrolled',
    actor: 'headset',
    call: async () => {
      const tenant = await makeTenant(t);
      const code = await t.app.inject({
        method: 'POST',
        url: '/v1/devices/enrollment-code',
        headers: tenant.headers,
      });
      return {
        as: 'nobody',
        payload: { code: code.json<{ code: string }>().code, name: 'Quest 7', type: 'quest' },
      };
    },
    changes: { name: [null, 'Quest 7'], type: [null, 'quest'] },
  },
  heartbeat: { exempt: 'the hot path; a heartbeat changes only the last-seen time' },
  samlAcs: {
    exempt:
      'needs a response signed by a real identity provider: src/sso/saml-sign-in.test.ts walks it ' +
      'and finds its auth.login event',
  },
  reportProgress: {
    action: 'session.progress',
    actor: 'headset',
    call: async () => {
      const session = await runningSession();
      return {
        as: session.headset,
        params: { id: session.id },
        payload: { completed_tasks: 2 },
      };
    },
    changes: { completed_tasks: [0, 2] },
  },
  finishSession: {
    action: 'session.finished',
    actor: 'headset',
    call: async () => {
      const session = await runningSession();
      return {
        as: session.headset,
        params: { id: session.id },
        payload: { completed_tasks: 3, success: true },
      };
    },
    changes: { status: ['active', 'completed'], completed_tasks: [0, 3], success: [null, true] },
  },
  createOrganization: {
    action: 'organization.created',
    call: async () => ({ as: admin, payload: { name: 'North Plant' } }),
    changes: { name: [null, 'North Plant'] },
  },
  updateOrganization: {
    action: 'organization.updated',
    call: async () => {
      const organization = await makeOrganization(t.db, { name: 'Plant A' });
      return { as: admin, params: { id: organization.id }, payload: { name: 'Plant B' } };
    },
    changes: { name: ['Plant A', 'Plant B'] },
  },
  deleteOrganization: {
    action: 'organization.deleted',
    call: async () => {
      const organization = await makeOrganization(t.db, { name: 'Closed plant' });
      return { as: admin, params: { id: organization.id } };
    },
    changes: { name: ['Closed plant', null] },
  },
  putSsoConfig: {
    action: 'sso.configured',
    call: async () => {
      const organization = await makeOrganization(t.db, { name: 'Plant with SSO' });
      return {
        as: admin,
        params: { id: organization.id },
        payload: { ...SSO_BODY, email_domains: [`${crypto.randomUUID()}.example.com`] },
      };
    },
    changes: { client_secret: [null, AUDIT_REDACTED], issuer: [null, SSO_BODY.issuer] },
  },
  deleteSsoConfig: {
    action: 'sso.removed',
    call: async () => {
      const organization = await makeOrganization(t.db, { name: 'Plant without SSO' });
      const put = await t.app.inject({
        method: 'PUT',
        url: `/v1/admin/organizations/${organization.id}/sso`,
        headers: admin.headers,
        payload: { ...SSO_BODY, email_domains: [`${crypto.randomUUID()}.example.com`] },
      });
      expect(put.statusCode, put.body).toBe(200);
      return { as: admin, params: { id: organization.id } };
    },
    changes: { issuer: [SSO_BODY.issuer, null] },
  },
  issueScimToken: {
    action: 'sso.scim_token_issued',
    call: async () => {
      const organization = await makeOrganization(t.db, { name: 'Plant with a directory' });
      return { as: admin, params: { id: organization.id }, payload: { name: 'Entra ID' } };
    },
    changes: { name: [null, 'Entra ID'], token: [null, AUDIT_REDACTED] },
  },
  revokeScimToken: {
    action: 'sso.scim_token_revoked',
    call: async () => {
      const organization = await makeOrganization(t.db, { name: 'Plant leaving its directory' });
      const issued = await t.app.inject({
        method: 'POST',
        url: `/v1/admin/organizations/${organization.id}/scim-token`,
        headers: admin.headers,
        payload: { name: 'Okta' },
      });
      expect(issued.statusCode, issued.body).toBe(201);
      return { as: admin, params: { id: organization.id } };
    },
    changes: { name: ['Okta', null], token: [AUDIT_REDACTED, null] },
  },
  createAccount: {
    action: 'account.created',
    call: async () => ({
      as: admin,
      payload: {
        email: 'new.staff@example.com',
        password: 'a-new-secret-1',
        role: 'client',
        organization_id: staff.organization.id,
      },
    }),
    changes: { email: [null, 'new.staff@example.com'], password: [null, AUDIT_REDACTED] },
  },
  updateAccount: {
    action: 'account.updated',
    call: async () => {
      const account = await makeAccount(t.db, { organization_id: staff.organization.id });
      return { as: admin, params: { id: account.id }, payload: { role: 'admin' } };
    },
    changes: { role: ['client', 'admin'] },
  },
  deleteAccount: {
    action: 'account.deleted',
    call: async () => {
      const account = await makeAccount(t.db, { email: 'gone@example.com' });
      return { as: admin, params: { id: account.id } };
    },
    changes: { email: ['gone@example.com', null] },
  },
  changePassword: {
    action: 'account.password_set',
    call: async () => {
      const account = await makeAccount(t.db, { organization_id: staff.organization.id });
      return { as: admin, params: { id: account.id }, payload: { new_password: 'changed-pw-9' } };
    },
    changes: { password: [AUDIT_REDACTED, AUDIT_REDACTED] },
  },
  adminDeleteDevice: {
    action: 'device.deleted',
    call: async () => {
      const device = await makeDevice(t.db, staff.organization.id);
      return { as: admin, params: { id: device.id } };
    },
  },
  bulkDeleteDevices: {
    action: 'device.deleted',
    call: async () => {
      const device = await makeDevice(t.db, staff.organization.id);
      return { as: admin, payload: { device_ids: [device.id] } };
    },
  },
  createScenario: {
    action: 'scenario.created',
    call: async () => ({ as: admin, payload: { name: 'Fire drill' } }),
    changes: { name: [null, 'Fire drill'] },
  },
  updateScenario: {
    action: 'scenario.updated',
    call: async () => {
      const tree = await makeScenarioTree(t.db, { scenarioName: 'Drill v1' });
      return { as: admin, params: { id: tree.scenario.id }, payload: { name: 'Drill v2' } };
    },
    changes: { name: ['Drill v1', 'Drill v2'] },
  },
  deleteScenario: {
    action: 'scenario.deleted',
    call: async () => {
      const tree = await makeScenarioTree(t.db, { scenarioName: 'Retired drill' });
      return { as: admin, params: { id: tree.scenario.id } };
    },
    changes: { name: ['Retired drill', null] },
  },
  createModule: {
    action: 'module.created',
    call: async () => {
      const tree = await makeScenarioTree(t.db);
      return { as: admin, params: { id: tree.scenario.id }, payload: { name: 'Evacuation' } };
    },
    changes: { name: [null, 'Evacuation'] },
  },
  updateModule: {
    action: 'module.updated',
    call: async () => {
      const tree = await makeScenarioTree(t.db, { moduleName: 'M old' });
      return { as: admin, params: { id: tree.module.id }, payload: { name: 'M new' } };
    },
    changes: { name: ['M old', 'M new'] },
  },
  deleteModule: {
    action: 'module.deleted',
    call: async () => ({ as: admin, params: { id: (await makeScenarioTree(t.db)).module.id } }),
  },
  createLevel: {
    action: 'level.created',
    call: async () => {
      const tree = await makeScenarioTree(t.db);
      return {
        as: admin,
        params: { id: tree.module.id },
        payload: { name: 'Level 2', level_number: 2, max_tasks: 5 },
      };
    },
    changes: { name: [null, 'Level 2'], max_tasks: [null, 5] },
  },
  updateLevel: {
    action: 'level.updated',
    call: async () => {
      const tree = await makeScenarioTree(t.db, { maxTasks: 3 });
      return { as: admin, params: { id: tree.level.id }, payload: { max_tasks: 4 } };
    },
    changes: { max_tasks: [3, 4] },
  },
  deleteLevel: {
    action: 'level.deleted',
    call: async () => ({ as: admin, params: { id: (await makeScenarioTree(t.db)).level.id } }),
  },
  createLevelOption: {
    action: 'level_option.created',
    call: async () => {
      const tree = await makeScenarioTree(t.db);
      return { as: admin, params: { id: tree.level.id }, payload: { name: 'Fog', order_index: 3 } };
    },
    changes: { name: [null, 'Fog'] },
  },
  updateLevelOption: {
    action: 'level_option.updated',
    call: async () => {
      const tree = await makeScenarioTree(t.db, { optionNames: ['Snow'] });
      return { as: admin, params: { id: tree.options[0]!.id }, payload: { name: 'Sleet' } };
    },
    changes: { name: ['Snow', 'Sleet'] },
  },
  deleteLevelOption: {
    action: 'level_option.deleted',
    call: async () => {
      const tree = await makeScenarioTree(t.db, { optionNames: ['Wind'] });
      return { as: admin, params: { id: tree.options[0]!.id } };
    },
  },
  grantAccess: {
    action: 'license.granted',
    call: async () => {
      const tree = await makeScenarioTree(t.db);
      const organization = await makeOrganization(t.db);
      return {
        as: admin,
        params: { id: tree.scenario.id },
        payload: { organization_ids: [organization.id], expires_at: soon() },
      };
    },
  },
  revokeAccess: {
    action: 'license.revoked',
    call: async () => {
      const tree = await makeScenarioTree(t.db);
      const organization = await makeOrganization(t.db);
      const granted = await t.app.inject({
        method: 'POST',
        url: `/v1/admin/scenarios/${tree.scenario.id}/grant`,
        headers: admin.headers,
        payload: { organization_ids: [organization.id], expires_at: soon() },
      });
      expect(granted.statusCode, granted.body).toBe(200);
      return {
        as: admin,
        params: { id: tree.scenario.id },
        payload: { organization_ids: [organization.id] },
      };
    },
  },
  uploadBuild: {
    action: 'app_build.uploaded',
    call: async () => ({
      as: admin,
      params: { platform: 'oculus' },
      query: 'version=2.1.0',
      payload: apk,
      headers: { 'content-type': 'application/vnd.android.package-archive' },
    }),
    changes: { version: [null, '2.1.0'] },
  },
  createIntegration: {
    action: 'integration.created',
    call: async () => ({
      as: staff,
      payload: { kind: 'webhook', url: 'http://127.0.0.1:9/hook', events: ['device.enrolled'] },
    }),
    changes: { url: [null, 'http://127.0.0.1:9/hook'], secret: [null, AUDIT_REDACTED] },
  },
  updateIntegration: {
    action: 'integration.updated',
    call: async () => ({
      as: staff,
      params: { id: await makeIntegration() },
      payload: { url: 'http://127.0.0.1:9/other' },
    }),
    changes: { url: ['http://127.0.0.1:9/hook', 'http://127.0.0.1:9/other'] },
  },
  deleteIntegration: {
    action: 'integration.deleted',
    call: async () => ({ as: staff, params: { id: await makeIntegration() } }),
    changes: { url: ['http://127.0.0.1:9/hook', null] },
  },
  rotateIntegrationSecret: {
    action: 'integration.secret_rotated',
    call: async () => ({ as: staff, params: { id: await makeIntegration() } }),
    changes: { secret: [AUDIT_REDACTED, AUDIT_REDACTED] },
  },
  revokePreviousIntegrationSecret: {
    action: 'integration.updated',
    call: async () => {
      const id = await makeIntegration();
      const rotated = await t.app.inject({
        method: 'POST',
        url: `/v1/integrations/${id}/rotate-secret`,
        headers: staff.headers,
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      return { as: staff, params: { id } };
    },
    changes: { previous_secret: [AUDIT_REDACTED, null] },
  },
  testIntegration: {
    action: 'integration.tested',
    // Nothing listens on the discard port: the answer says so, the test send is still recorded.
    call: async () => ({ as: staff, params: { id: await makeIntegration() } }),
    changes: { status_code: [null, null], error: [null, 'connection_refused'] },
  },
  redeliver: {
    action: 'integration.redelivered',
    call: async () => {
      const id = await makeIntegration();
      await t.db.transaction().execute((trx) =>
        recordOutbox(trx, {
          organizationId: staff.organization.id,
          type: 'device.enrolled',
          at: t.clock.now(),
          data: {
            device_id: crypto.randomUUID(),
            organization_id: staff.organization.id,
            name: 'Quest 7',
            type: 'quest',
            enrolled_at: t.clock.now().toISOString(),
          },
        }),
      );
      const delivery = await t.db
        .selectFrom('deliveries')
        .select('id')
        .where('integration_id', '=', id)
        .executeTakeFirstOrThrow();
      return { as: staff, params: { id, deliveryId: delivery.id } };
    },
    changes: { status: ['pending', 'pending'] },
  },
  // Qualifications (issue 37).
  createQualification: {
    action: 'qualification.created',
    call: async () => ({
      as: staff,
      payload: { name: 'Forklift', level_ids: [await grantedLevel()], validity_days: 1095 },
    }),
    changes: { name: [null, 'Forklift'], validity_days: [null, 1095] },
  },
  updateQualification: {
    action: 'qualification.updated',
    call: async () => ({
      as: staff,
      params: { id: await makeQualification() },
      payload: { validity_days: 365 },
    }),
    changes: { validity_days: [1095, 365] },
  },
  deleteQualification: {
    action: 'qualification.archived',
    call: async () => ({ as: staff, params: { id: await makeQualification() } }),
  },
  assignQualification: {
    action: 'qualification.assigned',
    call: async () => {
      const vrUser = await makeVrUser(t.db, staff.organization.id);
      return {
        as: staff,
        params: { id: await makeQualification() },
        payload: { vr_user_ids: [vrUser.id] },
      };
    },
  },
  unassignQualification: {
    action: 'qualification.unassigned',
    call: async () => {
      const { id, vrUserId } = await assignedQualification();
      return { as: staff, params: { id, vrUserId } };
    },
  },
  signEvaluation: {
    action: 'qualification.evaluation_signed',
    call: async () => {
      const { id, vrUserId } = await assignedQualification();
      return {
        as: staff,
        params: { id: vrUserId },
        payload: {
          qualification_id: id,
          result: 'pass',
          meaning: 'Practical evaluation passed',
          password: TEST_PASSWORD,
        },
      };
    },
    changes: { meaning: [null, 'Practical evaluation passed'], result: [null, 'pass'] },
  },
  revokeQualification: {
    action: 'qualification.revoked',
    call: async () => {
      const { id, vrUserId } = await assignedQualification();
      return {
        as: staff,
        params: { id: vrUserId, qualificationId: id },
        payload: { reason: 'Incident in bay 3' },
      };
    },
    changes: { reason: [null, 'Incident in bay 3'] },
  },
  // Into any LMS (issue 41).
  exportLmsPackage: {
    action: 'lms_package.exported',
    call: async () => ({
      as: staff,
      query: `level_id=${await grantedLevel()}&scorm_version=2004`,
    }),
    changes: { scorm_version: [null, '2004'] },
  },
  revokeLmsPackageKey: {
    action: 'lms_package.revoked',
    call: async () => {
      const key = await lmsPackage();
      return { as: staff, params: { id: key.id } };
    },
  },
  createLmsLaunch: {
    action: 'vr_user.created',
    actor: 'system',
    call: async () => {
      const key = await lmsPackage();
      return {
        as: 'nobody',
        payload: { package_key: key.key, learner_id: 'lms-learner-7', learner_name: 'Lee, Kim' },
      };
    },
    changes: { name: [null, 'Lee, Kim'], external_id: [null, 'lms-learner-7'] },
  },
  claimLmsLaunch: {
    action: 'session.started',
    actor: 'headset',
    call: async () => {
      const setup = await makeStartableSetup(t, staff.organization.id);
      const key = await lmsPackage(setup.level.id);
      const launch = await t.app.inject({
        method: 'POST',
        url: '/v1/lms/launches',
        payload: { package_key: key.key, learner_id: 'lms-learner-8' },
      });
      return { as: setup.headset, payload: { pin: launch.json<{ pin: string }>().pin } };
    },
    changes: { started_by: [null, 'lms_launch'] },
  },
};

/** An LMS package of the staff's organisation, exported through the API: its id and key. */
async function lmsPackage(levelId?: string): Promise<{ id: string; key: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/v1/lms/packages?level_id=${levelId ?? (await grantedLevel())}&scorm_version=1.2`,
    headers: staff.headers,
  });
  const files = unzipSync(new Uint8Array(response.rawPayload));
  const key = /"packageKey": "([^"]+)"/.exec(strFromU8(files['config.js']!))![1]!;
  const [listed] = (
    await t.app.inject({ url: '/v1/lms/package-keys', headers: staff.headers })
  ).json<{ package_keys: { id: string }[] }>().package_keys;
  return { id: listed!.id, key };
}

/** A level of a scenario the staff's organisation holds a grant for. */
async function grantedLevel(): Promise<string> {
  const tree = await makeScenarioTree(t.db);
  await t.db
    .insertInto('scenario_access')
    .values({
      scenario_id: tree.scenario.id,
      organization_id: staff.organization.id,
      granted_at: t.clock.now(),
    })
    .execute();
  return tree.level.id;
}

async function makeQualification(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/qualifications',
    headers: staff.headers,
    payload: { name: 'Forklift', level_ids: [await grantedLevel()], validity_days: 1095 },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string }>().id;
}

async function assignedQualification() {
  const id = await makeQualification();
  const vrUser = await makeVrUser(t.db, staff.organization.id);
  const assigned = await t.app.inject({
    method: 'POST',
    url: `/v1/qualifications/${id}/assignments`,
    headers: staff.headers,
    payload: { vr_user_ids: [vrUser.id] },
  });
  expect(assigned.statusCode, assigned.body).toBe(200);
  return { id, vrUserId: vrUser.id };
}

/** A webhook of the staff's organisation that receives device.enrolled. */
async function makeIntegration(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/integrations',
    headers: staff.headers,
    payload: { kind: 'webhook', url: 'http://127.0.0.1:9/hook', events: ['device.enrolled'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ integration: { id: string } }>().integration.id;
}

const mutating = (Object.keys(routes) as RouteName[]).filter(
  (name) => routes[name].method !== 'GET',
);

async function eventsOf(action: AuditAction): Promise<AuditEvent[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/audit-events?action=${action}&limit=500`,
    headers: admin.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventPage>().audit_events;
}

describe('every mutating route writes its audit event', () => {
  it('has a row in the table for every mutating route of the route map', () => {
    expect(mutating.filter((name) => !(name in CALLS))).toEqual([]);
  });

  for (const name of mutating) {
    const expected = CALLS[name];
    if (!expected || 'exempt' in expected) continue;
    it(`${routes[name].method} ${routes[name].path}: ${expected.action}`, async () => {
      const call = await expected.call();
      const seen = new Set((await eventsOf(expected.action)).map((event) => event.id));
      const headers = call.as === 'nobody' ? {} : call.as.headers;
      const response = await t.app.inject({
        method: routes[name].method,
        url: `${routePath(routes[name], call.params)}${call.query ? `?${call.query}` : ''}`,
        headers: { ...headers, ...call.headers, 'user-agent': 'audit-walk/1.0' },
        ...(call.payload !== undefined ? { payload: call.payload } : {}),
      });
      expect(response.statusCode, response.body).toBeLessThan(300);

      const written = (await eventsOf(expected.action)).filter((event) => !seen.has(event.id));
      expect(written.length, `${name} wrote no ${expected.action} event`).toBeGreaterThan(0);
      const event = written[0]!;
      expect(event.outcome).toBe('success');
      expect(event.actor.type).toBe(expected.actor ?? 'account');
      expect(event.user_agent).toBe('audit-walk/1.0');
      expect(event.ip).toBeTruthy();
      expect(event.request_id).toBeTruthy();
      if (expected.changes) expect(event.changes).toMatchObject(expected.changes);
    });
  }
});

describe('sign-in and refusals', () => {
  it('records a failed sign-in with the email tried, never the password', async () => {
    const password = `Wrong-${crypto.randomBytes(6).toString('hex')}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: staff.account.email, password },
    });
    expect(response.statusCode).toBe(401);
    const event = (await eventsOf('auth.login_failed')).find(
      (e) => e.target.label === staff.account.email,
    );
    expect(event).toMatchObject({
      outcome: 'failure',
      organization_id: staff.organization.id,
      actor: { type: 'account', id: staff.account.id, email: staff.account.email },
      target: { type: 'account', label: staff.account.email },
    });
    // Nowhere in the stored row, whatever the column.
    const { rows } = await sql<{ row: string }>`
      SELECT a::text AS row FROM audit_events a WHERE id = ${event!.id}`.execute(t.db);
    expect(rows[0]!.row).toContain(staff.account.email);
    expect(rows[0]!.row).not.toContain(password);
    const { rows: anywhere } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_events a WHERE a::text LIKE ${`%${password}%`}`.execute(
      t.db,
    );
    expect(anywhere[0]!.n).toBe(0);
  });

  it('records a failed change of one’s own password without the passwords tried', async () => {
    const tenant = await makeTenant(t);
    const tried = `Guess-${crypto.randomBytes(6).toString('hex')}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/password',
      headers: tenant.headers,
      payload: { current_password: tried, new_password: `${tried}-new` },
    });
    expect(response.statusCode).toBe(403);
    const event = (await eventsOf('auth.password_changed')).find(
      (e) => e.actor.id === tenant.account.id,
    );
    expect(event).toMatchObject({ outcome: 'failure', target: { id: tenant.account.id } });
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_events a WHERE a::text LIKE ${`%${tried}%`}`.execute(
      t.db,
    );
    expect(rows[0]!.n).toBe(0);
    // Recorded once: the refusal is not also an access_denied.
    expect(
      (await eventsOf('auth.access_denied')).filter((e) => e.actor.id === tenant.account.id),
    ).toEqual([]);
  });

  it('counts a sign-in with an unknown email instead of recording it (no account to name)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'nobody-here@example.com', password: 'whatever-1' },
    });
    expect(response.statusCode).toBe(401);
    const events = await eventsOf('auth.login_failed');
    expect(events.filter((e) => e.target.label === 'nobody-here@example.com')).toEqual([]);
  });

  it('records a client refused on an admin route (403); a request with no token is only counted', async () => {
    const before = (await eventsOf('auth.access_denied')).length;
    const noToken = await t.app.inject({ method: 'GET', url: '/v1/vr-users' });
    expect(noToken.statusCode).toBe(401);
    const client = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/users',
      headers: staff.headers,
    });
    expect(client.statusCode).toBe(403);
    // Written once the answer has gone out (the refusal's caller does not wait for it).
    const denied = await vi.waitFor(async () => {
      const events = await eventsOf('auth.access_denied');
      expect(events.length).toBe(before + 1);
      return events;
    }, BACKGROUND);
    const byRoute = (route: string) => denied.find((event) => event.target.id === route);
    expect(byRoute('GET /v1/admin/users')).toMatchObject({
      outcome: 'denied',
      organization_id: staff.organization.id,
      actor: { id: staff.account.id, email: staff.account.email, role: 'client' },
      target: { type: 'route', id: 'GET /v1/admin/users' },
    });
    expect(byRoute('GET /v1/vr-users')).toBeUndefined();
  });

  it('records a refused headset once per hour and route, naming the device it knows', async () => {
    const heartbeat = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      t.app.inject({
        method: 'POST',
        url: '/v1/headset/heartbeat',
        headers,
        remoteAddress,
        payload: { battery_percent: 50 },
      });
    const refusedFor = async (predicate: (event: AuditEvent) => boolean) =>
      (await eventsOf('auth.access_denied')).filter(
        (event) => event.actor.type === 'headset' && predicate(event),
      );

    // A token nobody knows (a removed headset still calling): the platform's chain, no device.
    const stranger = { authorization: `Bearer ${crypto.randomBytes(32).toString('base64url')}` };
    for (let call = 0; call < 3; call += 1) {
      expect((await heartbeat(stranger, '203.0.113.77')).statusCode).toBe(401);
    }
    const unknown = await vi.waitFor(async () => {
      const events = await refusedFor((event) => event.ip === '203.0.113.77');
      expect(events).toHaveLength(1);
      return events;
    }, BACKGROUND);
    expect(unknown[0]).toMatchObject({
      organization_id: null,
      outcome: 'denied',
      actor: { type: 'headset', id: null },
      target: { type: 'route', id: 'POST /v1/headset/heartbeat', label: '/v1/headset/heartbeat' },
      changes: { status: [null, 401] },
    });
    expect(JSON.stringify(unknown)).not.toContain(stranger.authorization.slice(7));

    // A known headset of a deactivated organisation: its organisation's chain, the device named.
    const tenant = await makeTenant(t);
    const { device, headers } = await makeEnrolledDevice(t.db, tenant.organization.id);
    const deactivated = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/organizations/${tenant.organization.id}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    for (let call = 0; call < 3; call += 1) expect((await heartbeat(headers)).statusCode).toBe(401);
    const ofDevice = () => refusedFor((event) => event.actor.id === device.id);
    await vi.waitFor(async () => expect(await ofDevice()).toHaveLength(1), BACKGROUND);
    expect((await ofDevice())[0]).toMatchObject({
      organization_id: tenant.organization.id,
      changes: { reason: [null, 'This organization is deactivated'] },
    });

    // An hour on, the next refusal is recorded again.
    t.clock.advance(60 * 60 * 1000);
    expect((await heartbeat(headers)).statusCode).toBe(401);
    await vi.waitFor(async () => expect(await ofDevice()).toHaveLength(2), BACKGROUND);
  });

  it('keeps the actor’s email and role on the events after the account is deleted', async () => {
    const leaving = await makeTenant(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers: leaving.headers,
      payload: { name: 'Left behind' },
    });
    const { id } = created.json<{ id: string }>();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/users/${leaving.account.id}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    const page = await t.app.inject({
      method: 'GET',
      url: `/v1/audit-events?target_id=${id}`,
      headers: admin.headers,
    });
    expect(page.json<AuditEventPage>().audit_events[0]!.actor).toEqual({
      type: 'account',
      id: leaving.account.id,
      email: leaving.account.email,
      role: 'client',
    });
  });

  it('names an enrolment code by its organisation, not by an internal id', async () => {
    const tenant = await makeTenant(t, { organizationName: 'Depot West' });
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: '/v1/devices/enrollment-code',
        headers: tenant.headers,
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    for (const action of ['enrollment_code.issued', 'enrollment_code.revoked'] as const) {
      const [event] = (await eventsOf(action)).filter(
        (e) => e.organization_id === tenant.organization.id,
      );
      expect(event?.target, action).toEqual({
        type: 'enrollment_code',
        id: tenant.organization.id,
        label: 'Depot West',
        // An organisation has one name: nothing to show instead in English.
        label_en: null,
      });
    }
  });

  it('records what the server decides: a silent headset’s session ended as disconnected', async () => {
    const session = await runningSession();
    t.clock.advance(t.config.disconnectAfterMs + 1000);
    await runSweep(contextOf(t));
    const [event] = (await eventsOf('session.disconnected')).filter(
      (e) => e.target.id === session.id,
    );
    expect(event).toMatchObject({
      actor: { type: 'system', id: null },
      organization_id: staff.organization.id,
      // Not a success: the session was lost.
      outcome: 'failure',
      changes: { status: ['active', 'disconnected'] },
    });
    // Its headset's result arrives late: a late result, the headset the actor.
    const late = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${session.id}/finish`,
      headers: session.headset.headers,
      payload: { completed_tasks: 1, success: false },
    });
    expect(late.statusCode, late.body).toBe(200);
    const [lateEvent] = (await eventsOf('session.late_result')).filter(
      (e) => e.target.id === session.id,
    );
    expect(lateEvent).toMatchObject({
      actor: { type: 'headset', id: session.headset.device.id },
      changes: { status: ['disconnected', 'completed'] },
    });
  });
});
