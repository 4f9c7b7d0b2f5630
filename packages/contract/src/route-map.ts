import type { Static, TSchema } from 'typebox';
import type { ErrorCode } from './errors.ts';

/**
 * Who may call a route: anyone, a signed-in account, an admin, or an enrolled headset.
 * `user` is an organisation's staff (and admins on their own organisation); `reader` lets in the
 * read-only `auditor` role beside them: the reads staff have, and the caller's own sign-in
 * (signing out, its own password). A route the auditor may not call is never `reader`.
 */
export type RouteAccess = 'public' | 'reader' | 'user' | 'admin' | 'device' | 'signed_link';

/**
 * One route of the API, as both sides must agree on it: method and path (Fastify's `:param`
 * syntax), who may call it, what it takes (params, query string, JSON body) and answers (the
 * success status and its body), and the error codes it may answer beside the ones every route of
 * its access may (bad input, a missing or refused token).
 */
export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  access: RouteAccess;
  tags: readonly string[];
  description?: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** Request headers the route reads (lower-case names, as HTTP treats them case-insensitively). */
  headers?: TSchema;
  /**
   * The success status and its JSON body; `file` answers stream a file (CSV, APK); `redirect`
   * answers send the browser on.
   */
  success:
    | { status: 200 | 201; body: TSchema }
    | { status: 200; file: string }
    /** A browser's navigation sent on elsewhere (single sign-on): where, in words. */
    | { status: 302; redirect: string };
  errors: readonly ErrorCode[];
}

export const defineRoute = <const R extends RouteDefinition>(route: R): R => route;

/** The typed parts of a route, for clients. */
export type RouteParams<R extends RouteDefinition> = R['params'] extends TSchema
  ? Static<R['params']>
  : undefined;
export type RouteQuery<R extends RouteDefinition> = R['querystring'] extends TSchema
  ? Static<R['querystring']>
  : undefined;
export type RouteHeaders<R extends RouteDefinition> = R['headers'] extends TSchema
  ? Static<R['headers']>
  : undefined;
export type RouteBody<R extends RouteDefinition> = R['body'] extends TSchema
  ? Static<R['body']>
  : undefined;
export type RouteResponse<R extends RouteDefinition> = R['success'] extends { body: infer B }
  ? B extends TSchema
    ? Static<B>
    : never
  : Blob;

/**
 * The path with its `:params` filled in, each encoded. A missing or empty parameter is refused
 * here, before any request: `/v1/admin/scenarios//access` would only earn a 400 (or, worse,
 * match another route), so no caller can send one.
 */
export function routePath(route: RouteDefinition, params?: Record<string, string>): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '')
      throw new Error(`${route.path} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
}
