import { routes } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * The contract's route map is the API: every route the server serves is one of its entries, and
 * every entry is served, with the method, path and error statuses it declares.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function served(): string[] {
  const paths = (t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

describe('the route map', () => {
  it('is exactly what the server serves under /v1', () => {
    const declared = Object.values(routes)
      .map((route) => `${route.method} ${openApiPath(route.path)}`)
      .sort();
    expect(served().filter((route) => route.includes(' /v1/'))).toEqual(declared);
  });

  it('leaves out only the probes and SCIM, which speak to machines in forms of their own', () => {
    // The probes answer balancers and process managers; SCIM (RFC 7644) answers the
    // organisation's directory with its own token, media type and errors (decision 029).
    expect(served().filter((route) => !route.includes(' /v1/'))).toEqual(
      [
        'GET /healthz',
        'GET /readyz',
        'GET /scim/v2/ServiceProviderConfig',
        'GET /scim/v2/ResourceTypes',
        'GET /scim/v2/ResourceTypes/{id}',
        'GET /scim/v2/Schemas',
        'GET /scim/v2/Schemas/{id}',
        'GET /scim/v2/Users',
        'POST /scim/v2/Users',
        'GET /scim/v2/Users/{id}',
        'PUT /scim/v2/Users/{id}',
        'PATCH /scim/v2/Users/{id}',
        'DELETE /scim/v2/Users/{id}',
      ].sort(),
    );
  });

  it('documents each route’s success and error answers', () => {
    const paths = (
      t.app.swagger() as unknown as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      }
    ).paths;
    for (const [name, route] of Object.entries(routes)) {
      const operation = paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(operation, name).toBeDefined();
      expect(Object.keys(operation!.responses), name).toContain(String(route.success.status));
    }
  });
});
