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
import { AppError } from '../service/errors.ts';
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
  // A sign-in for a second factor's enrolment only reaches that enrolment (decision 031).
  reader: ['validation_error', 'unauthorized', 'mfa_enrolment_required'],
  // A read-only auditor is refused (403) on anything not open to readers.
  user: ['validation_error', 'unauthorized', 'forbidden', 'mfa_enrolment_required'],
  admin: ['validation_error', 'unauthorized', 'forbidden', 'mfa_enrolment_required'],
  device: ['validation_error', 'unauthorized'],
};
/** What any route may answer however good the request: the machine, not the request (503). */
const MACHINE_ERRORS: readonly ErrorCode[] = ['service_unavailable', 'storage_unavailable'];
/**
 * What reading a request body may answer. Fastify reads the body of every method but GET (and
 * HEAD), whether or not the route map gives the route a body: a POST without one still answers
 * malformed JSON, an unknown content type or an oversize body.
 */
const BODY_ERRORS: readonly ErrorCode[] = [
  'bad_request',
  'payload_too_large',
  'unsupported_media_type',
];

/**
 * Longest path parameter (an id, a platform name) a route takes: a longer one is answered 414
 * uri_too_long, after the caller is let in. The router itself takes far longer ones (app.ts), so
 * that its own 414 (FST_ERR_MAX_PARAM_LENGTH), which comes before any route or guard, never does.
 */
export const MAX_PARAM_LENGTH = 100;

/**
 * What a change made with the console's sign-in cookie may answer on top (decision 025): a
 * request from another site's page, or without Origin, is refused.
 */
const COOKIE_CHANGE_ERRORS: readonly ErrorCode[] = ['cross_site_request'];

/** Every error code a route can answer, its access's, its body's and params', and its own. */
export function routeErrors(route: RouteDefinition): ErrorCode[] {
  const signedInByAccount = byAccount(route.access);
  return [
    ...new Set([
      ...ACCESS_ERRORS[route.access],
      ...(route.method === 'GET' ? [] : BODY_ERRORS),
      ...(signedInByAccount && route.method !== 'GET' ? COOKIE_CHANGE_ERRORS : []),
      ...(route.params ? ['uri_too_long' as const] : []),
      ...route.errors,
      ...MACHINE_ERRORS,
    ]),
  ];
}

/** onRequest hook after the guard: a path parameter past MAX_PARAM_LENGTH is refused with 414. */
const paramsWithinLimit: onRequestHookHandler = (request, _reply, done) => {
  for (const [name, value] of Object.entries(request.params as Record<string, string>)) {
    if (value.length > MAX_PARAM_LENGTH) {
      return done(
        new AppError(
          'uri_too_long',
          `The path parameter ${name} is longer than ${MAX_PARAM_LENGTH} characters`,
          { details: { field: `params.${name}`, limit: MAX_PARAM_LENGTH } },
        ),
      );
    }
  }
  done();
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
  else if ('redirect' in route.success) {
    response[route.success.status] = { description: route.success.redirect };
  } else {
    response[route.success.status] = {
      description: 'A file',
      content: { [route.success.file]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  // One answer per status, described by the codes it may carry.
  const codesByStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrors(route)) {
    const status = ERRORS[code].status;
    codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of codesByStatus) {
    response[status] = { ...ErrorBody, description: codes.join(', ') };
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
    // The guard first: a caller who may not call the route learns nothing of its input rules.
    onRequest: [
      ...(guard ? [guard] : []),
      ...(route.params ? [paramsWithinLimit] : []),
      ...hooksOf(options.onRequest),
    ],
    method: route.method,
    url: route.path,
    schema: {
      tags: [...route.tags],
      ...(route.description ? { description: route.description } : {}),
      ...(needsToken ? { security: security(route.access) } : { security: [] }),
      ...(route.params ? { params: route.params } : {}),
      ...(route.querystring ? { querystring: route.querystring } : {}),
      ...(route.body ? { body: route.body } : {}),
      ...(route.headers ? { headers: route.headers } : {}),
      response,
    },
    // A created answer carries its status without each handler setting it.
    handler:
      route.success.status !== 201
        ? (handler as RouteHandlerMethod)
        : function created(request, reply) {
            reply.status(route.success.status);
            return (handler as RouteHandlerMethod).call(this, request, reply);
          },
  });
}

/** An account's routes take the console's sign-in cookie as well as a bearer token. */
function security(access: RouteAccess): Record<string, string[]>[] {
  return byAccount(access) ? [{ bearer: [] }, { cookie: [] }] : [{ bearer: [] }];
}

/** Accesses a console account signs in to (a bearer token or the console's cookie). */
const byAccount = (access: RouteAccess) =>
  access === 'reader' || access === 'user' || access === 'admin';

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
