import http from 'node:http';
import autocannon from 'autocannon';

/**
 * The client side of the console benchmark (bench/console.bench.ts), run as a child process so
 * that the benchmark process hosts the server alone: its CPU time and RSS are the server's. The
 * benchmark forks two of these: one sends the measured load (autocannon, the export download),
 * the other the background traffic (headsets in session heartbeating, the admin loop). Each
 * message carries an id; the answer carries it back. Several messages may be under way at once.
 */

export interface LoadJob {
  kind: 'load';
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds of load; ignored when `amount` is set. */
  durationS?: number;
  /** A fixed number of requests, all answered (for reads that take seconds each). */
  amount?: number;
  /** autocannon's overallRate: requests per second across all connections. */
  overallRate?: number;
  /** Each request carries the next of these as its bearer token (headsets). */
  tokens?: string[];
  timeoutS: number;
}

export interface LoadOutcome {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** 2xx answers (the only ones autocannon puts in its latency histogram). */
  ok: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
  statusCodes: Record<string, number>;
}

export interface DownloadJob {
  kind: 'download';
  url: string;
  headers?: Record<string, string>;
}

export interface DownloadOutcome {
  status: number;
  contentType: string;
  bytes: number;
  /** Newline characters in the body. */
  lines: number;
  firstByteMs: number;
  totalMs: number;
  /** The start of the body, for messages about answers that are not the expected file. */
  head: string;
  error?: string;
}

/** Loops over the requests, one at a time, until a `stop` message with the same id. */
export interface LoopJob {
  kind: 'loop';
  requests: Array<{ name: string; url: string; headers?: Record<string, string> }>;
}

export interface LoopOutcome {
  iterations: Array<{
    name: string;
    count: number;
    statuses: Record<string, number>;
    msMax: number;
    msTotal: number;
  }>;
}

/** Heartbeats from each token once per `intervalMs`, spread evenly, until stopped. */
export interface KeepAliveJob {
  kind: 'keepalive';
  url: string;
  tokens: string[];
  intervalMs: number;
}

export interface KeepAliveOutcome {
  sent: number;
  statuses: Record<string, number>;
}

export type ClientJob = LoadJob | DownloadJob | LoopJob | KeepAliveJob;
export type ClientMessage = { id: number; job: ClientJob } | { id: number; stop: true };

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function countLines(chunk: Buffer): number {
  let lines = 0;
  let at = chunk.indexOf(10);
  while (at !== -1) {
    lines += 1;
    at = chunk.indexOf(10, at + 1);
  }
  return lines;
}

/** A GET whose body is counted as it arrives and never kept (only its first 300 bytes). */
export function download(job: DownloadJob): Promise<DownloadOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(job.url, { headers: job.headers, agent }, (response) => {
      const firstByteMs = performance.now() - started;
      let bytes = 0;
      let lines = 0;
      let head = '';
      response.on('data', (chunk: Buffer) => {
        if (head.length < 300) head += chunk.subarray(0, 300 - head.length).toString('utf8');
        bytes += chunk.length;
        lines += countLines(chunk);
      });
      const finish = (error?: string) =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers['content-type'] ?? ''),
          bytes,
          lines,
          firstByteMs,
          totalMs: performance.now() - started,
          head,
          ...(error ? { error } : {}),
        });
      response.on('end', () => finish());
      response.on('error', (error) => finish(error.message));
      response.on('aborted', () => finish('aborted'));
    });
    request.on('error', (error) =>
      resolve({
        status: 0,
        contentType: '',
        bytes: 0,
        lines: 0,
        firstByteMs: 0,
        totalMs: performance.now() - started,
        head: '',
        error: error.message,
      }),
    );
  });
}

async function load(job: LoadJob): Promise<LoadOutcome> {
  const tokens = job.tokens ?? [];
  let next = 0;
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    ...(job.amount ? { amount: job.amount } : { duration: job.durationS ?? 3 }),
    ...(job.overallRate
      ? {
          overallRate: job.overallRate,
          // autocannon corrects for coordinated omission with an expected interval of
          // ceil(1 / rate) ms, i.e. 1 ms whatever the rate, which adds made-up samples (19, 18, …
          // 1 ms for one 20 ms answer). The raw latencies are reported instead.
          ignoreCoordinatedOmission: true,
        }
      : {}),
    timeout: job.timeoutS,
    requests: [
      {
        method: job.method,
        path: job.path,
        headers: job.headers ?? {},
        ...(job.body !== undefined ? { body: job.body } : {}),
        ...(tokens.length > 0
          ? {
              setupRequest: (req: autocannon.Request) => {
                next = (next + 1) % tokens.length;
                return {
                  ...req,
                  headers: { ...req.headers, authorization: `Bearer ${tokens[next]}` },
                };
              },
            }
          : {}),
      },
    ],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = stat?.count ?? 0;
  }
  const ok = Object.entries(statusCodes)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    requestsPerSecond: result.duration > 0 ? ok / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    ok,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: result.duration,
    statusCodes,
  };
}

const stops = new Map<number, () => void>();

async function loop(id: number, job: LoopJob): Promise<LoopOutcome> {
  let stopped = false;
  stops.set(id, () => (stopped = true));
  const iterations = job.requests.map((r) => ({
    name: r.name,
    count: 0,
    statuses: {} as Record<string, number>,
    msMax: 0,
    msTotal: 0,
  }));
  while (!stopped) {
    for (const [index, request] of job.requests.entries()) {
      if (stopped) break;
      const outcome = await download({
        kind: 'download',
        url: request.url,
        headers: request.headers,
      });
      const record = iterations[index]!;
      record.count += 1;
      const key = String(outcome.status);
      record.statuses[key] = (record.statuses[key] ?? 0) + 1;
      record.msMax = Math.max(record.msMax, outcome.totalMs);
      record.msTotal += outcome.totalMs;
    }
  }
  stops.delete(id);
  return { iterations };
}

async function keepAlive(id: number, job: KeepAliveJob): Promise<KeepAliveOutcome> {
  const outcome: KeepAliveOutcome = { sent: 0, statuses: {} };
  if (job.tokens.length === 0) return outcome;
  const gapMs = job.intervalMs / job.tokens.length;
  let next = 0;
  let inFlight = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(
      () => {
        // Never more than a few in flight: a stalled server is not buried under a backlog.
        if (inFlight >= 20) return;
        const token = job.tokens[next]!;
        next = (next + 1) % job.tokens.length;
        inFlight += 1;
        const request = http.request(
          `${job.url}/v1/headset/heartbeat`,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          },
          (response) => {
            response.resume();
            response.on('end', () => {
              inFlight -= 1;
              outcome.sent += 1;
              const key = String(response.statusCode);
              outcome.statuses[key] = (outcome.statuses[key] ?? 0) + 1;
            });
          },
        );
        request.on('error', () => {
          inFlight -= 1;
          outcome.statuses.error = (outcome.statuses.error ?? 0) + 1;
        });
        request.end(JSON.stringify({ battery_percent: 64, app_version: '1.5.0' }));
      },
      Math.max(1, gapMs),
    );
    stops.set(id, () => {
      clearInterval(timer);
      resolve();
    });
  });
  stops.delete(id);
  return outcome;
}

function run(id: number, job: ClientJob): Promise<unknown> {
  switch (job.kind) {
    case 'load':
      return load(job);
    case 'download':
      return download(job);
    case 'loop':
      return loop(id, job);
    case 'keepalive':
      return keepAlive(id, job);
  }
}

if (process.send) {
  process.on('message', (message: ClientMessage) => {
    if ('stop' in message) {
      stops.get(message.id)?.();
      return;
    }
    run(message.id, message.job).then(
      (result) => process.send!({ id: message.id, result }),
      (error: unknown) =>
        process.send!({
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
