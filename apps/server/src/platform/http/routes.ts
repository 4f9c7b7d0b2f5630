import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  ErrorBody,
  type ErrorCode,
  type RouteAccess,
  type RouteDefinition,
} from '@vrtc/contract';
import type {
  FastifyBaseLogger,
  onRequestHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { AppInstance } from './app-types.ts';

/**
 * How a caller of each access that takes a token is let in: an onRequest hook that refuses (401,
 * 403) or marks the request with its caller. The app supplies them (from the auth and headset
 * domains) once, before any route is registered; the platform holds no domain code.
 */
export type AccessGuards = Record<
  Exclude<RouteAccess, 'public' | 'signed_link'>,
  onRequestHookHandler
>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The guards registerRoute puts in front of each route, by its access (useAccessGuards). */
    accessGuards?: AccessGuards;
  }
}

/** Hands registerRoute the guards of every access: call once, before registering any route. */
export function useAccessGuards(app: AppInstance, guards: AccessGuards): void {
  app.decorate('accessGuards', guards);
}

/** The errors any route of an access may answer, on top of its own. */
const ACCESS_ERRORS: Record<RouteAccess, readonly ErrorCode[]> = {
  public: ['validation_error'],
  signed_link: ['validation_error'],
  user: ['validation_error', 'unauthorized'],
  admin: ['validation_error', 'unauthorized', 'forbidden'],
  device: ['validation_error', 'unauthorized'],
};

type SuccessSchema<R extends RouteDefinition> = R['success'] extends {
  status: infer S extends number;
  body: infer B extends TSchema;
}
  ? { [K in S]: B }
  : object;

/** The Fastify schema of a contract route: what the type provider infers the handler from. */
export interface RouteSchema<R extends RouteDefinition> {
  params: R['params'];
  querystring: R['querystring'];
  body: R['body'];
  headers: R['headers'];
  response: SuccessSchema<R>;
}

export type ContractHandler<R extends RouteDefinition> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  unknown,
  RouteSchema<R>,
  TypeBoxTypeProvider,
  FastifyBaseLogger
>;

/** Route options beside the schema (a log level, a body limit, hooks), as Fastify takes them. */
export type ContractRouteOptions = Omit<RouteShorthandOptions, 'schema'>;

/**
 * Registers a route of the contract's route map: its method, path and schemas come from there
 * (validation, response serialisation and the OpenAPI document at /docs), its error answers are
 * documented from its error codes, the answer's status is the route's (201 for a creation), and the
 * handler's request and reply types follow.
 *
 * The route's access is enforced here, whatever scope the route is registered in: its guard is
 * the route's first onRequest hook, so a caller who may not call it is refused before anything
 * of the request (its size, its JSON, its schema) is judged. A route whose access needs a guard
 * the app did not supply is not registered at all.
 */
export function registerRoute<R extends RouteDefinition>(
  app: AppInstance,
  route: R,
  handler: ContractHandler<R>,
  options: ContractRouteOptions = {},
): void {
  const response: Record<number, unknown> = {};
  if ('body' in route.success) response[route.success.status] = route.success.body;
  else {
    response[route.success.status] = {
      description: 'A file',
      content: { [route.success.file]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  for (const code of [...ACCESS_ERRORS[route.access], ...route.errors]) {
    response[ERRORS[code].status] = ErrorBody;
  }
  const needsToken = route.access !== 'public' && route.access !== 'signed_link';
  const guard =
    route.access === 'public' || route.access === 'signed_link'
      ? undefined
      : app.accessGuards?.[route.access];
  if (needsToken && !guard) {
    throw new Error(
      `${route.method} ${route.path} is declared '${route.access}' but no guard was supplied for it (useAccessGuards)`,
    );
  }
  app.route({
    ...options,
    onRequest: [...(guard ? [guard] : []), ...hooksOf(options.onRequest)],
    method: route.method,
    url: route.path,
    schema: {
      tags: [...route.tags],
      ...(route.description ? { description: route.description } : {}),
      ...(needsToken ? { security: [{ bearer: [] }] } : { security: [] }),
      ...(route.params ? { params: route.params } : {}),
      ...(route.querystring ? { querystring: route.querystring } : {}),
      ...(route.body ? { body: route.body } : {}),
      ...(route.headers ? { headers: route.headers } : {}),
      response,
    },
    // A created answer carries its status without each handler setting it.
    handler:
      route.success.status === 200
        ? (handler as RouteHandlerMethod)
        : function created(request, reply) {
            reply.status(route.success.status);
            return (handler as RouteHandlerMethod).call(this, request, reply);
          },
  });
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
