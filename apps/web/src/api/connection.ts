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

/** The server's liveness probe: answered while the process runs, without its database. */
const LIVENESS_PATH = '/healthz';

/**
 * `fetch` that tells the connection what happened. An abort the caller asked for says nothing:
 * it is not the server's doing. With `confirmOutage`, for a connection a network or a proxy may
 * refuse on its own while every other request is answered (the live stream: some proxies reset
 * or time out long-held answers), no answer or a proxy's 502/504 is confirmed by a request to
 * the server's liveness probe before the connection is told the server is away.
 */
export async function fetchNoting(
  input: RequestInfo | URL,
  init?: RequestInit,
  { confirmOutage = false } = {},
) {
  const note = async (status: number | undefined) => {
    const away = status === undefined || GATEWAY_STATUSES.has(status);
    if (!away || !confirmOutage) return noteServerAnswer(status);
    try {
      await fetchNoting(LIVENESS_PATH, { cache: 'no-store', signal: init?.signal ?? null });
    } catch {
      // The probe has told the connection.
    }
  };
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (!init?.signal?.aborted) await note(undefined);
    throw error;
  }
  await note(response.status);
  return response;
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
