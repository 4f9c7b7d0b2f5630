import { useSyncExternalStore } from 'react';

/**
 * Whether the console can reach its server, as its own requests find out: a request that fails
 * before any answer (the network refused it) or that a proxy answers 502 or 504 (no server behind
 * it) says no; any other answer says yes, a 503 too (the server itself, refusing for now). Screens keep what they last read while the server is away, and say how
 * old it is (`lastReachedAt`); the banner of the layout names the outage.
 */
export interface ServerConnection {
  reachable: boolean;
  /** When a request was last answered (ms since the epoch); undefined before the first answer. */
  lastReachedAt: number | undefined;
}

let state: ServerConnection = { reachable: true, lastReachedAt: undefined };
const listeners = new Set<() => void>();

function set(next: ServerConnection) {
  if (next.reachable === state.reachable && next.lastReachedAt === state.lastReachedAt) return;
  state = next;
  for (const listener of listeners) listener();
}

/** Statuses that mean a proxy in front of the server found no server behind it. */
const GATEWAY_STATUSES = new Set([502, 504]);

/** A request was answered (`status`) or failed without an answer (`undefined`). */
export function noteServerAnswer(status: number | undefined, at = Date.now()): void {
  if (status === undefined || GATEWAY_STATUSES.has(status)) {
    set({ ...state, reachable: false });
  } else {
    // The time moves only when something changes, or once a second: a burst of answers is one update.
    const stale = state.lastReachedAt === undefined || at - state.lastReachedAt >= 1000;
    set({ reachable: true, lastReachedAt: stale || !state.reachable ? at : state.lastReachedAt });
  }
}

/**
 * `fetch` that tells the connection what happened. An abort the caller asked for says nothing:
 * it is not the server's doing.
 */
export async function fetchNoting(input: RequestInfo | URL, init?: RequestInit) {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (!init?.signal?.aborted) noteServerAnswer(undefined);
    throw error;
  }
  noteServerAnswer(response.status);
  return response;
}

/** The server's liveness probe: answered while the process runs, without its database. */
const LIVENESS_PATH = '/healthz';

/**
 * `fetch` for a connection a network or a proxy may refuse on its own (the live stream: some
 * proxies reset or time out long-held answers) while every other request is answered. A request
 * it sends that fails without an answer, or that a proxy answers 502 or 504, tells the connection
 * nothing by itself: a request to the server's liveness probe says whether the server is away.
 */
export async function fetchConfirmingOutage(input: RequestInfo | URL, init?: RequestInit) {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (!init?.signal?.aborted) await probeServer(init?.signal);
    throw error;
  }
  if (GATEWAY_STATUSES.has(response.status)) await probeServer(init?.signal);
  else noteServerAnswer(response.status);
  return response;
}

async function probeServer(signal: AbortSignal | null | undefined) {
  try {
    await fetchNoting(LIVENESS_PATH, { cache: 'no-store', ...(signal ? { signal } : {}) });
  } catch {
    // fetchNoting has told the connection.
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getServerConnection(): ServerConnection {
  return state;
}

export function useServerConnection(): ServerConnection {
  return useSyncExternalStore(subscribe, getServerConnection, getServerConnection);
}

/** Calls `listener` whenever the server can be reached again after it could not. */
export function onServerBack(listener: () => void): () => void {
  let wasReachable = state.reachable;
  return subscribe(() => {
    if (state.reachable && !wasReachable) listener();
    wasReachable = state.reachable;
  });
}

/** Tests start from a reachable server. */
export function resetServerConnection(): void {
  state = { reachable: true, lastReachedAt: undefined };
  for (const listener of listeners) listener();
}
