import type { ErrorBody } from '@vrtc/contract';
import { readStoredLogin } from '../auth/storage';

/** A failed API call: HTTP status plus the server's `{ error, message }` when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;

  constructor(status: number, body: Partial<ErrorBody> | undefined) {
    super(body?.message ?? body?.error ?? `Request failed with status ${status}`);
    this.status = status;
    this.code = body?.error;
    this.serverMessage = body?.message ?? body?.error;
  }
}

let unauthorizedHandler: (() => void) | undefined;

/** Called on any 401: the auth layer clears the stored login and sends the user to /login. */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  unauthorizedHandler = handler;
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function request(method: string, path: string, options: RequestOptions = {}) {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = readStoredLogin()?.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) {
    let body: Partial<ErrorBody> | undefined;
    try {
      body = (await response.json()) as Partial<ErrorBody>;
    } catch {
      body = undefined;
    }
    if (response.status === 401 && token) unauthorizedHandler?.();
    throw new ApiError(response.status, body);
  }
  return response;
}

async function json<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
  const response = await request(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** The typed API client: response types come from @vrtc/contract at each call site. */
export const api = {
  get: <T>(path: string, options?: RequestOptions) => json<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    json<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body: unknown, options?: RequestOptions) =>
    json<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => json<T>('DELETE', path, options),
  /** A binary download (e.g. CSV export). */
  blob: async (path: string, options?: RequestOptions) => {
    const response = await request('GET', path, options);
    return { blob: await response.blob(), filename: filenameFrom(response) };
  },
};

function filenameFrom(response: Response): string | undefined {
  const disposition = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (utf8?.[1]) return decodeURIComponent(utf8[1]);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

/** The server's message (or error code) when it sent one, else the given fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}
