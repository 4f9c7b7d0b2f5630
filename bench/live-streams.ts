import http from 'node:http';

/**
 * The stream side of the live-streams benchmark (bench/live.bench.ts), run as a child process so
 * that neither the server nor the load generator holds the 1,000 sockets. Opens console live
 * streams (GET /v1/events) as the console does (bearer token in the Authorization header), keeps
 * them open, counts what arrives on them, and closes them when told or when the benchmark goes.
 * One request at a time over IPC, each answered in order.
 */

export type StreamsRequest =
  | {
      kind: 'open';
      url: string;
      /** One console bearer token per account; each opens `perToken` streams. */
      tokens: string[];
      perToken: number;
      /** Streams being opened at once. */
      concurrency: number;
      timeoutMs: number;
    }
  | { kind: 'stats' }
  | { kind: 'close' };

export interface StreamsOpened {
  /** Streams that answered 200 and sent their `ready` event. */
  opened: number;
  /** Refusals and failures, by status (or error message). */
  refused: Record<string, number>;
  ms: number;
}

export interface StreamsStats {
  open: number;
  /** Events received on all streams since they opened, `ready` excluded, by event name. */
  events: Record<string, number>;
  bytes: number;
  /** Streams the server ended (or that failed) while they were meant to stay open. */
  closedEarly: number;
}

interface Held {
  request: http.ClientRequest;
  closing: boolean;
}

const held: Held[] = [];
const stats: StreamsStats = { open: 0, events: {}, bytes: 0, closedEarly: 0 };

/** Opens one stream; resolves with 'ok' once its `ready` event arrived, else with why not. */
function openOne(url: string, token: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const entry: Held = { request: undefined as unknown as http.ClientRequest, closing: false };
    const request = http.get(
      `${url}/v1/events`,
      { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          settle(String(response.statusCode));
          return;
        }
        response.setEncoding('utf8');
        let pending = '';
        let ready = false;
        response.on('data', (chunk: string) => {
          stats.bytes += Buffer.byteLength(chunk);
          pending += chunk;
          for (let end = pending.indexOf('\n\n'); end !== -1; end = pending.indexOf('\n\n')) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            const name = /^event: (.+)$/m.exec(block)?.[1];
            if (!name) continue;
            if (name === 'ready' && !ready) {
              ready = true;
              stats.open += 1;
              held.push(entry);
              settle('ok');
            } else {
              stats.events[name] = (stats.events[name] ?? 0) + 1;
            }
          }
        });
        response.on('close', () => {
          if (!ready) return settle('closed before ready');
          stats.open -= 1;
          if (!entry.closing) stats.closedEarly += 1;
        });
      },
    );
    entry.request = request;
    request.on('error', (error) => settle(error.message));
    const timer = setTimeout(() => {
      request.destroy();
      settle('timed out');
    }, timeoutMs);
  });
}

async function open(request: Extract<StreamsRequest, { kind: 'open' }>): Promise<StreamsOpened> {
  const started = performance.now();
  const queue = request.tokens.flatMap((token) =>
    Array.from({ length: request.perToken }, () => token),
  );
  const outcome: StreamsOpened = { opened: 0, refused: {}, ms: 0 };
  const worker = async () => {
    for (let token = queue.shift(); token !== undefined; token = queue.shift()) {
      const result = await openOne(request.url, token, request.timeoutMs);
      if (result === 'ok') outcome.opened += 1;
      else outcome.refused[result] = (outcome.refused[result] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: request.concurrency }, worker));
  outcome.ms = performance.now() - started;
  return outcome;
}

function closeAll(): StreamsStats {
  for (const entry of held.splice(0)) {
    entry.closing = true;
    entry.request.destroy();
  }
  return { ...stats, events: { ...stats.events } };
}

async function handle(request: StreamsRequest): Promise<unknown> {
  switch (request.kind) {
    case 'open':
      return open(request);
    case 'stats':
      return { ...stats, events: { ...stats.events } };
    case 'close':
      return closeAll();
  }
}

let queue: Promise<void> = Promise.resolve();
process.on('message', (message: StreamsRequest) => {
  queue = queue.then(() =>
    handle(message).then(
      (result) => {
        process.send!(result);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    ),
  );
});
process.on('disconnect', () => {
  closeAll();
  process.exit(0);
});
