import fs from 'node:fs';
import autocannon from 'autocannon';

/**
 * The load generator, run as a child process of the benchmark (so the server under test keeps its
 * process, and the CPU time the server spends per request can be read with process.cpuUsage()).
 * Answers each LoadRequest received over IPC with a LoadResult, in order.
 */

export interface LoadRequest {
  url: string;
  path: string;
  body: string;
  connections: number;
  durationS: number;
  /** A JSON array of device tokens; each request carries the next one. */
  tokensFile: string;
  /** Another call than the heartbeat: its method, the paths it takes in turn, one bearer token. */
  call?: { method: 'PUT' | 'POST'; paths: string[]; token: string };
  /** Requests per second over all connections (a fleet's pace); as fast as answered without. */
  rate?: number;
}

/** Ends the load under way now (a run of `durationS` long enough to be stopped). */
export interface StopRequest {
  stop: true;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  failures: number;
}

let current: { stop(): void } | undefined;
let stopRequested = false;

async function run(request: LoadRequest): Promise<LoadResult> {
  const tokens = JSON.parse(fs.readFileSync(request.tokensFile, 'utf8')) as string[];
  const call = request.call;
  let next = 0;
  // The promise autocannon answers is its running instance too, which stop() ends early (its types
  // know the promise only).
  const instance = autocannon({
    url: request.url,
    connections: request.connections,
    duration: request.durationS,
    ...(request.rate ? { overallRate: request.rate } : {}),
    requests: [
      {
        method: call?.method ?? 'POST',
        path: request.path,
        headers: { 'content-type': 'application/json' },
        body: request.body,
        setupRequest: (req) => {
          if (call) {
            next = (next + 1) % call.paths.length;
            const headers = { ...req.headers, authorization: `Bearer ${call.token}` };
            return { ...req, path: call.paths[next]!, headers };
          }
          next = (next + 1) % tokens.length;
          return { ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[next]}` } };
        },
      },
    ],
  }) as Promise<autocannon.Result> & { stop(): void };
  current = instance;
  if (stopRequested) instance.stop();
  const result = await instance;
  current = undefined;
  stopRequested = false;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

// One request at a time, in order; the runner ends when the benchmark disconnects.
let queue: Promise<void> = Promise.resolve();
process.on('message', (message: LoadRequest | StopRequest) => {
  if ('stop' in message) {
    if (current) current.stop();
    else stopRequested = true;
    return;
  }
  queue = queue.then(() =>
    run(message).then(
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
process.on('disconnect', () => process.exit(0));
