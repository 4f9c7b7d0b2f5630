import { routes, Text } from '@vrtc/contract';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../platform/http/caller.ts';
import { bearerToken } from '../auth/tokens.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { countAttempt, refuseOverLimit, takeAttempt } from '../platform/service/rate-limit.ts';
import * as discovery from './scim-discovery.ts';
import { answerScimError, ScimError } from './scim-errors.ts';
import { parseScimFilter } from './scim-filter.ts';
import { parsePatch, parseUserResource } from './scim-input.ts';
import * as tokens from './scim-tokens.ts';
import * as users from './scim-users.ts';

/** A platform admin's SCIM token of an organisation (access admin, in the route map). */
export function scimTokenRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.getScimToken, (request) => tokens.getScimToken(ctx, request.params.id));
  registerRoute(app, routes.issueScimToken, (request) =>
    tokens.issueScimToken(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.revokeScimToken, async (request) => {
    await tokens.revokeScimToken(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
}

/** Refused tokens per address in a window, then 429 (decision 008: counted in the database). */
export const SCIM_REFUSALS_PER_ADDRESS = 20;
/** Calls per token in a window: a directory's full cycle fits, a runaway loop does not. */
export const SCIM_CALLS_PER_TOKEN = 1200;
const SCIM_WINDOW_MS = 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    scimClient?: tokens.ScimClient;
  }
}

const SCIM_JSON = 'application/scim+json; charset=utf-8';

/**
 * SCIM 2.0 (RFC 7644) at /scim/v2, for the organisation's directory (docs/sso.md; decision 029).
 * Not the console's API: its own bearer (the organisation's SCIM token), its own media type and
 * error form, so it is registered apart from the route map, in a scope of its own; the OpenAPI
 * document lists it under the tag `scim`.
 */
export function scimRoutes(ctx: ServiceContext) {
  return async (scope: AppInstance) => {
    scope.addContentTypeParser(
      'application/scim+json',
      { parseAs: 'string' },
      scope.getDefaultJsonParser('error', 'error'),
    );
    scope.setErrorHandler(answerScimError);
    scope.setNotFoundHandler((request, reply) =>
      answerScimError(new ScimError(404, 'No such SCIM endpoint'), request, reply),
    );
    scope.addHook('onRequest', async (request) => {
      request.scimClient = await authenticate(ctx, request);
    });
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
        reply.type(SCIM_JSON);
      }
      return payload;
    });
    discoveryRoutes(scope, ctx);
    userRoutes(scope, ctx);
  };
}

async function authenticate(ctx: ServiceContext, request: FastifyRequest) {
  const now = ctx.clock.now();
  const token = bearerToken(request.headers.authorization);
  const client = token ? await tokens.resolveScimToken(ctx, token) : undefined;
  if (!client) {
    const key = `scim:refused:${request.ip}`;
    refuseOverLimit(
      await countAttempt(ctx.db, now, [
        { key, max: SCIM_REFUSALS_PER_ADDRESS, windowMs: SCIM_WINDOW_MS },
      ]),
      now,
    );
    throw new ScimError(401, 'A valid SCIM token is required');
  }
  await takeAttempt(ctx.db, now, [
    { key: `scim:token:${client.tokenId}`, max: SCIM_CALLS_PER_TOKEN, windowMs: SCIM_WINDOW_MS },
  ]);
  return client;
}

const tagged = (description: string) => ({ schema: { tags: ['scim'], description } });
/** An id in the path: bounded and storable, as every request string is (a longer one is 400). */
const IdParams = Type.Object({ id: Text({ maxLength: 200 }) });
const taggedWithId = (description: string) => ({
  schema: { tags: ['scim'], description, params: IdParams },
});

function discoveryRoutes(scope: AppInstance, ctx: ServiceContext) {
  scope.get('/ServiceProviderConfig', tagged('What this SCIM server supports'), () =>
    discovery.serviceProviderConfig(ctx),
  );
  scope.get('/ResourceTypes', tagged('The resource types: User'), () =>
    discovery.resourceTypes(ctx),
  );
  scope.get('/ResourceTypes/:id', taggedWithId('One resource type'), (request) => {
    const { id } = request.params as { id: string };
    if (id !== 'User') throw new ScimError(404, 'No such resource type');
    return discovery.userResourceType(ctx);
  });
  scope.get('/Schemas', tagged('The schemas: the core User'), () => discovery.schemas(ctx));
  scope.get('/Schemas/:id', taggedWithId('One schema'), (request) => {
    const { id } = request.params as { id: string };
    if (id !== users.SCIM_USER_SCHEMA) throw new ScimError(404, 'No such schema');
    return discovery.userSchema(ctx);
  });
}

const callOf = (ctx: ServiceContext, request: FastifyRequest): users.ScimCall => {
  if (!request.scimClient) throw new ScimError(401, 'A valid SCIM token is required');
  return { ctx, client: request.scimClient, request: requestFacts(request) };
};

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** A whole number from the query, or the fallback (RFC 7644 §3.4.2.4 is lenient with both). */
function intOf(value: unknown, fallback: number): number {
  const number = typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isNaN(number) ? fallback : number;
}

function userRoutes(scope: AppInstance, ctx: ServiceContext) {
  scope.get('/Users', tagged('Users, by filter (userName or externalId eq), paged'), (request) => {
    const query = request.query as Record<string, unknown>;
    const filter = typeof query.filter === 'string' ? query.filter : undefined;
    return users.listUsers(callOf(ctx, request), {
      filter: parseScimFilter(filter),
      startIndex: Math.max(1, intOf(query.startIndex, 1)),
      count: Math.min(users.SCIM_MAX_RESULTS, Math.max(0, intOf(query.count, 100))),
    });
  });
  scope.post('/Users', tagged('Creates a user'), async (request, reply: FastifyReply) => {
    const user = await users.createUser(callOf(ctx, request), parseUserResource(request.body));
    return reply.status(201).header('location', user.meta.location).send(user);
  });
  scope.get('/Users/:id', taggedWithId('One user'), (request) =>
    users.getUser(callOf(ctx, request), idOf(request)),
  );
  scope.put('/Users/:id', taggedWithId('Replaces a user'), (request) => {
    // The role and the account's organisation are never the directory's; active stays as it was
    // when the directory leaves it out.
    const { active, ...fields } = parseUserResource(request.body);
    const sent = (request.body as Record<string, unknown>) ?? {};
    const activeSent = Object.keys(sent).some((key) => key.toLowerCase() === 'active');
    return users.changeUser(callOf(ctx, request), idOf(request), {
      ...fields,
      ...(activeSent ? { active } : {}),
    });
  });
  scope.patch('/Users/:id', taggedWithId('Changes a user (PatchOp)'), (request) =>
    users.changeUser(callOf(ctx, request), idOf(request), parsePatch(request.body)),
  );
  scope.delete('/Users/:id', taggedWithId('Deactivates a user'), async (request, reply) => {
    await users.changeUser(callOf(ctx, request), idOf(request), { active: false });
    return reply.status(204).send();
  });
}
