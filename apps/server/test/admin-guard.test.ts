import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant } from './factories.ts';
import { bearer, createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Every admin route of the OpenAPI document, with its path parameters filled in. */
function adminRoutes(): Array<{ method: string; url: string }> {
  const paths = (t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths)
    .filter(([path]) => path.startsWith('/v1/admin/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
        .map((method) => ({
          method: method.toUpperCase(),
          url: path.replace(/\{platform\}/g, 'oculus').replace(/\{\w+\}/g, SOME_ID),
        })),
    );
}

describe('/v1/admin/*', () => {
  it('answers 403 to a client token on every route, before reading its input', async () => {
    const client = await makeTenant(t, { role: 'client' });
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: route.url,
        headers: client.headers,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().error).toBe('forbidden');
    }
  });

  it('answers 401 without a token on every route', async () => {
    for (const route of adminRoutes()) {
      const response = await t.app.inject({ method: route.method as 'GET', url: route.url });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('lets an admin token through (no 401/403) on the read routes', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    for (const route of adminRoutes().filter(
      (r) => r.method === 'GET' && !r.url.includes(SOME_ID),
    )) {
      const response = await t.app.inject({
        method: 'GET',
        url: route.url,
        headers: bearer(admin.token),
      });
      expect([401, 403], `${route.url}`).not.toContain(response.statusCode);
    }
  });
});
