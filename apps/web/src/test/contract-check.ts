import { routes, type RouteDefinition } from '@vrtc/contract';
import { Value } from 'typebox/value';

/**
 * The tests' fake servers are held to the contract: every successful answer a fake gives is
 * checked against the response schema of the route it stands in for, so a fake cannot drift from
 * what the server really answers (a renamed or missing field, a wrong type or format).
 */

interface RouteMatcher {
  name: string;
  route: RouteDefinition;
  pattern: RegExp;
  /** How many `:params` the path has: a fixed path wins over a parameter (as on the server). */
  params: number;
}

const matchers: RouteMatcher[] = Object.entries(routes as Record<string, RouteDefinition>)
  .map(([name, route]) => ({
    name,
    route,
    pattern: new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}$`),
    params: (route.path.match(/:\w+/g) ?? []).length,
  }))
  .sort((a, b) => a.params - b.params);

/** The contract's route for a request, by method and path (without the query). */
export function routeOf(method: string, path: string): RouteMatcher | undefined {
  return matchers.find((m) => m.route.method === method && m.pattern.test(path));
}

/** A fake answer the contract does not allow. */
export class FakeContractError extends Error {
  override name = 'FakeContractError';
}

/** Mismatches seen since the last `takeContractErrors()` (the UI may swallow a rejected fetch). */
const seen: FakeContractError[] = [];

export function takeContractErrors(): FakeContractError[] {
  return seen.splice(0, seen.length);
}

const MAX_LISTED = 8;

/**
 * Throws (and records, for the test's afterEach) when a fake answers a request that is no route
 * of the contract, or a success whose body the route's response schema refuses. Failures
 * (non-2xx) are not checked: tests send unknown codes and odd bodies on purpose.
 */
export function checkFakeAnswer(method: string, path: string, status: number, body: unknown) {
  if (status < 200 || status >= 300) return;
  const match = routeOf(method, path);
  const problem = !match
    ? `The fake answers ${method} ${path}, which is no route of the contract (routes.ts).`
    : describeMismatch(match, method, path, body);
  if (!problem) return;
  const error = new FakeContractError(problem);
  seen.push(error);
  throw error;
}

function describeMismatch(
  match: RouteMatcher,
  method: string,
  path: string,
  body: unknown,
): string | undefined {
  const { success } = match.route;
  if (!('body' in success)) return undefined;
  if (Value.Check(success.body, body)) return undefined;
  const errors = Value.Errors(success.body, body);
  const lines = errors
    .slice(0, MAX_LISTED)
    .map((error) => `  ${error.instancePath || '(the body)'}: ${error.message}`);
  if (errors.length > MAX_LISTED) lines.push(`  … and ${errors.length - MAX_LISTED} more`);
  return [
    `The fake answer of ${method} ${path} does not match the contract ` +
      `(routes.${match.name}, its success body):`,
    ...lines,
  ].join('\n');
}
