import {
  routePath,
  type RouteBody,
  type RouteDefinition,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@vrtc/contract';
import { ApiError, type ReceivedErrorBody } from '../lib/api-error';
import { fetchNoting } from './connection';

async function readErrorBody(response: Response): Promise<ReceivedErrorBody | undefined> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null ? body : undefined;
  } catch {
    return undefined;
  }
}

let unauthorizedHandler: (() => void) | undefined;

/**
 * Called on any 401 `unauthorized` (the sign-in cookie is missing, expired or ended; a wrong
 * password at sign-in is `invalid_credentials`): the auth layer clears the stored user and sends
 * the user to /login.
 */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  unauthorizedHandler = handler;
}

type QueryValue = string | number | boolean | null | undefined;

interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The console sends no token: the browser sends its sign-in cookie (httpOnly, decision 025) with
 * each request to the console's own origin, and the Origin header that lets a change through.
 */
const CREDENTIALS: RequestCredentials = 'same-origin';

function signedOut(status: number, body: ReceivedErrorBody | undefined): boolean {
  return status === 401 && body?.error === 'unauthorized';
}

async function request(method: string, path: string, options: RequestOptions = {}) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetchNoting(buildUrl(path, options.query), {
    method,
    headers,
    credentials: CREDENTIALS,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) {
    const body = await readErrorBody(response);
    if (signedOut(response.status, body)) unauthorizedHandler?.();
    throw new ApiError(response.status, body);
  }
  return response;
}

/** A route that answers JSON; the others stream a file (`download`, `upload`). */
export type JsonRoute = RouteDefinition & { success: { body: unknown } };
/** A route that answers a file (CSV, APK). */
export type FileRoute = RouteDefinition & { success: { file: string } };

/** One part of a call: absent when the route takes none, optional when every field is. */
type Part<Key extends string, T> = [T] extends [undefined]
  ? { [K in Key]?: undefined }
  : object extends T
    ? { [K in Key]?: T }
    : { [K in Key]: T };

/** What a call of the route takes, each part typed by the route's schema. */
export type CallOptions<R extends RouteDefinition> = Part<'params', RouteParams<R>> &
  Part<'query', RouteQuery<R>> &
  Part<'body', RouteBody<R>> & { signal?: AbortSignal };

/** The options argument: optional when the route needs nothing. */
type CallArgs<R extends RouteDefinition> =
  object extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

/** The parts as the implementation sees them, once the call site has been type-checked. */
interface LooseOptions {
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The typed API client: `api.call(routes.listVrUsers, { query })`. The route map of
 * @vrtc/contract gives the method, the path, and the types of the params, the query, the body
 * and the answer, so a call site names no path and writes no type that could drift.
 */
export const api = {
  call: async <R extends JsonRoute>(
    route: R,
    ...[options]: CallArgs<R>
  ): Promise<RouteResponse<R>> => {
    const { params, query, body, signal } = (options ?? {}) as LooseOptions;
    const sendsBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
    const response = await request(route.method, routePath(route, params), {
      query: query as Record<string, QueryValue> | undefined,
      // A POST without a body still sends JSON: `{}`.
      body: sendsBody ? (body ?? {}) : undefined,
      signal,
    });
    // Every JSON route answers 200 or 201 with a body (the contract's `success`).
    return (await response.json()) as RouteResponse<R>;
  },
  /** A file the route streams (e.g. a CSV export), with the file name the server gave it. */
  download: async <R extends FileRoute>(route: R, ...[options]: CallArgs<R>) => {
    const { params, query, signal } = (options ?? {}) as LooseOptions;
    const response = await request(route.method, routePath(route, params), {
      query: query as Record<string, QueryValue> | undefined,
      signal,
    });
    return { blob: await response.blob(), filename: filenameFrom(response) };
  },
  /** A file sent as the raw request body (an APK build), with its upload's progress. */
  upload: <R extends JsonRoute>(
    route: R,
    file: Blob,
    options: Omit<CallOptions<R>, 'body' | 'signal'> & UploadOptions,
  ): Promise<RouteResponse<R>> => {
    const { params, query } = options as LooseOptions;
    return uploadFile<RouteResponse<R>>(route.method, routePath(route, params), file, {
      ...options,
      query: query as Record<string, QueryValue> | undefined,
    });
  },
};

function filenameFrom(response: Response): string | undefined {
  const disposition = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (utf8?.[1]) return decodeURIComponent(utf8[1]);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

export interface UploadOptions {
  /** The file's content type (the request's). */
  contentType: string;
  /** Called as the body goes out: bytes sent and the total. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * POSTs a file as the raw request body and answers the JSON reply. XMLHttpRequest rather than
 * fetch: only it reports the upload's progress.
 */
function uploadFile<T>(
  method: string,
  path: string,
  file: Blob,
  options: UploadOptions & { query?: Record<string, QueryValue> },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, buildUrl(path, options.query));
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', options.contentType);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) =>
      options.onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    const parse = (): unknown => {
      try {
        return JSON.parse(xhr.responseText);
      } catch {
        return undefined;
      }
    };
    xhr.onload = () => {
      const parsed = parse();
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(parsed as T);
        return;
      }
      const body =
        typeof parsed === 'object' && parsed !== null ? (parsed as ReceivedErrorBody) : undefined;
      if (signedOut(xhr.status, body)) unauthorizedHandler?.();
      reject(new ApiError(xhr.status, body));
    };
    // The connection broke (the server may close it on a refused file): no status to word.
    xhr.onerror = () => reject(new TypeError('Network error'));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
