import { afterEach, describe, expect, it } from 'vitest';
import { checkFakeAnswer, routeOf, takeContractErrors } from './contract-check';

const vrUser = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Ivan Petrov',
  notes: null,
  external_id: null,
  session_count: 0,
  completed_count: 0,
  last_session_at: null,
  created_at: '2026-05-01T10:00:00.000Z',
};

describe('fake answers checked against the contract', () => {
  // The mismatches these tests provoke on purpose must not fail them in setup's afterEach.
  afterEach(() => {
    takeContractErrors();
  });

  it('passes an answer that is the route’s response schema', () => {
    expect(() =>
      checkFakeAnswer('GET', '/v1/vr-users', 200, {
        vr_users: [vrUser],
        total: 1,
        limit: 50,
        offset: 0,
      }),
    ).not.toThrow();
  });

  it('names the route and the fields of an answer the contract refuses', () => {
    const { session_count: _dropped, ...withoutCount } = vrUser;
    expect(() =>
      checkFakeAnswer('GET', '/v1/vr-users', 200, {
        vr_users: [{ ...withoutCount, created_at: 'yesterday' }],
        total: 1,
        limit: 50,
        offset: 0,
      }),
    ).toThrow(
      [
        'The fake answer of GET /v1/vr-users does not match the contract (routes.listVrUsers, its success body):',
        '  /vr_users/0: must have required properties session_count',
        '  /vr_users/0/created_at: must match format "date-time"',
      ].join('\n'),
    );
    expect(takeContractErrors()).toHaveLength(1);
  });

  it('refuses a fake for a path that is no route, and leaves failures unchecked', () => {
    expect(() => checkFakeAnswer('GET', '/v1/nowhere', 200, {})).toThrow(
      /no route of the contract/,
    );
    expect(() =>
      checkFakeAnswer('DELETE', '/v1/vr-users/1', 409, { error: 'anything at all' }),
    ).not.toThrow();
  });

  it('matches a fixed path before a parameter, as the server does', () => {
    expect(routeOf('GET', '/v1/admin/scenarios/access')?.name).toBe('scenarioAccess');
    expect(routeOf('GET', '/v1/admin/scenarios/abc')?.name).toBe('getScenario');
    expect(routeOf('DELETE', '/v1/devices/enrollment-code')?.name).toBe('revokeEnrollmentCode');
    expect(routeOf('DELETE', '/v1/devices/abc')?.name).toBe('deleteDevice');
  });
});
