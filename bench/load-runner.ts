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
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  failures: number;
}

async function run(request: LoadRequest): Promise<LoadResult> {
  const tokens = JSON.parse(fs.readFileSync(request.tokensFile, 'utf8')) as string[];
  const call = request.call;
  let next = 0;
  const result = await autocannon({
    url: request.url,
    connections: request.connections,
    duration: request.durationS,
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
  });
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
process.on('message', (message: LoadRequest) => {
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
