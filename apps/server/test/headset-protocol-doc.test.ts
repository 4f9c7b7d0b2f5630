import fs from 'node:fs';
import path from 'node:path';
import { ERRORS, routes, type ErrorCode } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeErrors } from '../src/platform/http/routes.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * docs/headset-protocol.md is what a headset app is written from, in any language: it must name
 * every headset route of the OpenAPI document and every error code those routes answer, with the
 * contract's status, and name nothing the server does not have.
 */
const protocolDoc = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../../docs/headset-protocol.md'),
  'utf8',
);

interface Operation {
  tags?: string[];
  responses: Record<string, unknown>;
  parameters?: Array<{ in: string; name: string }>;
}

let t: TestApp;
let headsetOperations: Array<{ method: string; path: string; operation: Operation }>;
beforeAll(async () => {
  t = await createTestApp();
  const paths = (t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> })
    .paths;
  headsetOperations = Object.entries(paths).flatMap(([route, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => operation.tags?.includes('headset'))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path: route, operation })),
  );
});
afterAll(() => t.close());

/** The section of the document that describes one call (up to the next heading). */
function sectionOf(method: string, route: string): string {
  const heading = `### \`${method} ${route}\``;
  const start = protocolDoc.indexOf(heading);
  expect(start, `a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const next = protocolDoc.slice(start + heading.length).search(/\n##+ /);
  return protocolDoc.slice(start, next < 0 ? undefined : start + heading.length + next);
}

describe('docs/headset-protocol.md', () => {
  it('names exactly the headset routes of the OpenAPI document', () => {
    const documented = [
      ...protocolDoc.matchAll(/`(GET|POST|PUT|DELETE) (\/v1\/headset\/[^`]+)`/g),
    ].map((match) => `${match[1]} ${match[2]}`);
    const served = headsetOperations.map(({ method, path: route }) => `${method} ${route}`);
    expect(served.length).toBeGreaterThanOrEqual(4);
    expect(new Set(documented)).toEqual(new Set(served));
  });

  it('gives each route the error codes it answers, and the statuses of the OpenAPI document', () => {
    const headsetRoutes = Object.values(routes).filter((route) =>
      (route.tags as readonly string[]).includes('headset'),
    );
    for (const { method, path: route, operation } of headsetOperations) {
      const contractRoute = headsetRoutes.find(
        (candidate) =>
          candidate.method === method && candidate.path.replace(/:(\w+)/g, '{$1}') === route,
      );
      expect(contractRoute, `${method} ${route} in the route map`).toBeDefined();
      const section = sectionOf(method, route);
      // Progress and finish share one table of errors after the finish's section; the errors of
      // any call (a body, the machine) are in a table of their own.
      const common = protocolDoc.slice(
        protocolDoc.indexOf('### Errors any call may answer'),
        protocolDoc.indexOf('## Retry rules'),
      );
      const reports = protocolDoc.slice(
        protocolDoc.indexOf('### Errors of progress and finish'),
        protocolDoc.indexOf('### Errors any call may answer'),
      );
      const text = `${section}\n${route.includes('/sessions/') ? reports : ''}\n${common}`;
      const codes = routeErrors(contractRoute!);
      for (const code of codes) {
        expect(text, `${method} ${route} documents ${code}`).toMatch(
          new RegExp(`\\| ${ERRORS[code].status} +\\| \`${code}\``),
        );
      }
      for (const status of Object.keys(operation.responses).filter((s) => s.startsWith('4'))) {
        expect(text, `${method} ${route} documents status ${status}`).toMatch(
          new RegExp(`\\| ${status} +\\| \``),
        );
      }
    }
  });

  it('names only error codes the contract has, each with its status', () => {
    const rows = [...protocolDoc.matchAll(/^\| (\d{3}) +\| `([a-z_]+)` +\|/gm)];
    expect(rows.length).toBeGreaterThan(10);
    for (const [, status, code] of rows) {
      expect(ERRORS, `${code} is a contract error code`).toHaveProperty(code!);
      expect(ERRORS[code as ErrorCode].status, `${code}'s status`).toBe(Number(status));
    }
  });

  it('names the Idempotency-Key header the OpenAPI document declares on progress and finish', () => {
    expect(protocolDoc).toContain('Idempotency-Key');
    const reports = headsetOperations.filter(({ path: route }) => route.includes('/sessions/'));
    expect(reports).toHaveLength(2);
    for (const { operation } of reports) {
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'idempotency-key' }),
      );
    }
  });
});
