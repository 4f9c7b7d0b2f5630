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
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { AppInstance } from './app-types.ts';

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
  app.route({
    ...options,
    method: route.method,
    url: route.path,
    schema: {
      tags: [...route.tags],
      ...(route.description ? { description: route.description } : {}),
      ...(needsToken ? { security: [{ bearer: [] }] } : { security: [] }),
      ...(route.params ? { params: route.params } : {}),
      ...(route.querystring ? { querystring: route.querystring } : {}),
      ...(route.body ? { body: route.body } : {}),
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
