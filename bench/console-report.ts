import type {
  DownloadOutcome,
  KeepAliveOutcome,
  LoadOutcome,
  LoopOutcome,
} from './console-client.ts';
import { type FillResult, type FillSizes } from './console-fill.ts';
import {
  CONNECTIONS,
  DURATION_S,
  EXPORT_MAX_RSS_MB,
  EXPORT_MAX_S,
  HEARTBEAT_CONNECTIONS,
  HEARTBEAT_DEVICES,
  HEARTBEAT_MAX_RATIO,
  HEARTBEAT_RATE,
  HEARTBEAT_S,
  IMMUTABLE,
  KEEPALIVE_MS,
  LOGIN_MAX_BYTES,
  PGLITE_SERVING_MAX_RSS_MB,
  READ_P99_MS,
  SLOW_PROBE_MS,
  SLOW_REQUESTS,
  WARMUP_S,
  int,
  kb,
  mb,
  ms,
} from './console-options.ts';
import { HISTORY_EXPORT, RANGE_365, RANGE_7, type Token } from './console-reads.ts';

/** What `npm run bench:console` measured, and its report with the verdicts against the targets. */

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

export interface Measurement {
  load: LoadOutcome;
  /** CPU time of this process (the server, PGlite included) per answered request, ms. */
  cpuMsPerRequest: number;
  loopDelayMaxMs: number;
  /** RSS of this process (the server), sampled every 100 ms during the measurement. */
  rssPeakBytes: number;
  mode: string;
}

/** Samples this process's RSS every 100 ms from start() to stop(). */
export class RssWatch {
  readonly beforeBytes = process.memoryUsage.rss();
  peakBytes = this.beforeBytes;
  samples = 0;
  maxGapMs = 0;
  private last = performance.now();
  private readonly timer = setInterval(() => {
    const now = performance.now();
    this.maxGapMs = Math.max(this.maxGapMs, now - this.last);
    this.last = now;
    this.samples += 1;
    this.peakBytes = Math.max(this.peakBytes, process.memoryUsage.rss());
  }, 100);

  stop(): this {
    clearInterval(this.timer);
    this.peakBytes = Math.max(this.peakBytes, process.memoryUsage.rss());
    return this;
  }
}

export interface ReadResult {
  name: string;
  url: string;
  token: Token;
  status: number;
  message?: string;
  bytes: number;
  items?: string;
  /** The first request (cold) and the second. */
  probeMs: number;
  secondProbeMs?: number;
  measured?: Measurement;
  /** The unpaged URL measured because the paged one was refused (no verdict). */
  informational?: boolean;
  error?: string;
}

export interface ExportResult {
  label: string;
  outcome: DownloadOutcome;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  samples: number;
  maxSampleGapMs: number;
}

export interface HeartbeatResult {
  bare: LoadOutcome;
  idle: LoadOutcome;
  loaded: LoadOutcome;
  loop: LoopOutcome;
  loopDelayMaxIdleMs: number;
  loopDelayMaxLoadedMs: number;
}

export interface StaticResult {
  indexStatus: number;
  indexCacheControl: string;
  files: Array<{
    path: string;
    status: number;
    bytes: number;
    encoding: string;
    cacheControl: string;
  }>;
  totalBytes: number;
  hashedAsset?: { path: string; cacheControl: string };
}

export interface DatabaseRun {
  kind: 'postgres' | 'pglite';
  label: string;
  scale: number;
  sizes: FillSizes;
  where: string;
  fill?: FillResult;
  loadBefore: string;
  loadAfter?: string;
  bare?: Measurement;
  reads: ReadResult[];
  exports: ExportResult[];
  expectedExportRows?: number;
  heartbeat?: HeartbeatResult;
  keepAlive?: KeepAliveOutcome;
  /** RSS of this process at each stage. */
  rss: Array<[string, number]>;
  /** This process's highest RSS from the server's start to the end of the heartbeats. */
  servingRssPeakBytes?: number;
  error?: string;
}

// Report
// ---------------------------------------------------------------------------------------------

export function describeSizes(sizes: FillSizes): string {
  return (
    `${int(sizes.organizations)} organisations, ${int(sizes.devices)} headsets, ` +
    `${int(sizes.vrUsers)} VR users, ${int(sizes.sessions)} sessions ` +
    `(${int(sizes.activeSessions)} active), organisation 1 holding ${sizes.biggestShare * 100} % of each`
  );
}

export function statusText(result: ReadResult): string {
  if (result.error) return `error: ${result.error}`;
  if (result.status === 404) return '404 – not built yet';
  if (result.status >= 200 && result.status <= 299) return String(result.status);
  return `${result.status} – not built yet${result.message ? ` (${result.message})` : ''}`;
}

export function summarizeRead(result: ReadResult): string {
  const m = result.measured;
  if (!m)
    return `${statusText(result)}, ${int(result.bytes)} bytes, probe ${ms(result.probeMs)} ms`;
  return (
    `${statusText(result)}, ${int(result.bytes)} bytes${result.items ? ` (${result.items})` : ''}, ` +
    `p50 ${ms(m.load.p50)} ms, p99 ${ms(m.load.p99)} ms, ${m.load.requestsPerSecond.toFixed(1)} req/s ` +
    `(${m.load.ok} answered${m.load.non2xx ? `, ${m.load.non2xx} non-2xx` : ''}${m.load.timeouts ? `, ${m.load.timeouts} timed out` : ''})`
  );
}

export const verdict = (ok: boolean | undefined) =>
  ok === undefined ? 'n/a' : ok ? '**PASS**' : '**FAIL**';
/** A markdown table; `align` has one letter per column, l or r (default: the first l, others r). */
export const table = (header: string[], rows: string[][], align?: string) =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');

export function readVerdict(result: ReadResult): { ok: boolean; why: string } {
  if (!result.measured) {
    return { ok: false, why: result.error ? 'error' : `${result.status}, not built yet` };
  }
  const load = result.measured.load;
  if (load.ok === 0) return { ok: false, why: 'no answer measured' };
  if (load.non2xx + load.errors + load.timeouts > 0)
    return { ok: false, why: `${load.non2xx + load.errors + load.timeouts} failed` };
  return { ok: load.p99 < READ_P99_MS, why: `p99 ${ms(load.p99)} ms` };
}

export function databaseReport(run: DatabaseRun): { lines: string[]; targets: string[][] } {
  const lines: string[] = [];
  const targets: string[][] = [];
  lines.push(`## ${run.label}`, '');
  lines.push(`- Where: ${run.where}`);
  lines.push(`- Requested: ${describeSizes(run.sizes)} (scale ${run.scale})`);
  lines.push(
    `- Load average (1 / 5 / 15 min): ${run.loadBefore} before, ${run.loadAfter ?? '?'} after`,
  );
  if (run.error) lines.push('', '**The run failed:**', '', '```', run.error, '```');
  const fill = run.fill;
  if (fill) {
    lines.push(
      `- Filled: ${Object.entries(fill.totals)
        .map(([key, value]) => `${int(value)} ${key.replace(/_/g, ' ')}`)
        .join(', ')}`,
      `- Biggest organisation: ${fill.biggest.name} (${fill.biggest.id}): ${int(fill.biggest.devices)} headsets, ` +
        `${int(fill.biggest.vrUsers)} VR users, ${int(fill.biggest.sessions)} sessions ` +
        `(${int(fill.biggest.endedSessions)} ended, ${int(fill.biggest.activeSessions)} active)`,
      '',
      `### Fill: ${(fill.totalMs / 1000).toFixed(1)} s`,
      '',
      table(
        ['step', 'rows', 'seconds'],
        fill.steps.map((s) => [s.name, int(s.rows), (s.ms / 1000).toFixed(1)]),
      ),
    );
  }
  if (run.rss.length > 0) {
    lines.push(
      '',
      `RSS of the benchmark process (the server${run.kind === 'pglite' ? ', PGlite’s thread included' : ''}): ` +
        run.rss.map(([stage, bytes]) => `${stage} ${mb(bytes)}`).join(', ') +
        '.',
    );
  }
  if (run.keepAlive) {
    lines.push(
      '',
      `Background throughout: ${fill?.activeDeviceNumbers.length ?? 0} headsets in session heartbeating every ` +
        `${KEEPALIVE_MS / 1000} s (${int(run.keepAlive.sent)} heartbeats, statuses ${JSON.stringify(run.keepAlive.statuses)}).`,
    );
  }

  if (run.reads.length > 0 || run.bare) {
    lines.push(
      '',
      `### Console reads (${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s; ` +
        `a read whose warm probe took ≥ ${SLOW_PROBE_MS} ms: ${SLOW_REQUESTS} requests, no warm-up)`,
      '',
    );
    const rows: string[][] = [];
    if (run.bare) {
      rows.push([
        'bare Fastify route (reference)',
        'GET /v1/bare',
        '200',
        '',
        ms(run.bare.load.p50),
        ms(run.bare.load.p99),
        run.bare.load.requestsPerSecond.toFixed(0),
        ms(run.bare.cpuMsPerRequest),
        ms(run.bare.loopDelayMaxMs),
        mb(run.bare.rssPeakBytes),
        '',
        '',
      ]);
    }
    for (const read of run.reads) {
      const m = read.measured;
      const v = readVerdict(read);
      rows.push([
        read.name,
        `${read.token}: ${read.url}`,
        statusText(read),
        `${int(read.bytes)}${read.items ? ` (${read.items})` : ''}`,
        m ? ms(m.load.p50) : '',
        m ? ms(m.load.p99) : '',
        m ? m.load.requestsPerSecond.toFixed(1) : '',
        m ? ms(m.cpuMsPerRequest) : '',
        m ? ms(m.loopDelayMaxMs) : '',
        m ? mb(m.rssPeakBytes) : '',
        (m
          ? `${m.mode}, ${m.load.ok} ok` +
            (m.load.non2xx + m.load.errors + m.load.timeouts
              ? `, ${m.load.non2xx + m.load.errors + m.load.timeouts} failed`
              : '') +
            '; '
          : '') +
          `probes ${ms(read.probeMs)}${read.secondProbeMs !== undefined ? ` / ${ms(read.secondProbeMs)}` : ''} ms`,
        read.informational ? '(info)' : verdict(v.ok),
      ]);
    }
    lines.push(
      table(
        [
          'read',
          'request',
          'status',
          'bytes',
          'p50 ms',
          'p99 ms',
          'req/s',
          'server CPU ms/req',
          'loop delay max ms',
          'RSS peak',
          'measured',
          `p99 < ${READ_P99_MS} ms`,
        ],
        rows,
        'lllrrrrrrrll',
      ),
    );
    const judged = run.reads.filter((r) => !r.informational);
    const failing = judged.filter((r) => !readVerdict(r).ok);
    targets.push([
      `every console read p99 < ${READ_P99_MS} ms`,
      `${judged.length - failing.length} of ${judged.length} pass` +
        (failing.length
          ? `; failing: ${failing.map((r) => `${r.name} (${readVerdict(r).why})`).join('; ')}`
          : ''),
      verdict(judged.length > 0 && failing.length === 0),
    ]);
    const r7 = run.reads.find((r) => r.name === RANGE_7)?.measured?.load;
    const r365 = run.reads.find((r) => r.name === RANGE_365)?.measured?.load;
    targets.push([
      'stats range 365 days p50 ≤ 2 × 7 days p50',
      r7 && r365 && r7.ok && r365.ok
        ? `${ms(r365.p50)} ms vs ${ms(r7.p50)} ms (${(r365.p50 / Math.max(0.1, r7.p50)).toFixed(1)} ×)`
        : 'not measured',
      verdict(r7 && r365 && r7.ok && r365.ok ? r365.p50 <= 2 * r7.p50 : undefined),
    ]);
  }

  if (run.exports.length > 0) {
    lines.push(
      '',
      `### History export: GET ${HISTORY_EXPORT} (client of the biggest organisation; ${int(run.expectedExportRows ?? 0)} ended sessions)`,
      '',
      table(
        [
          'download',
          'status',
          'bytes',
          'lines',
          'first byte ms',
          'total s',
          'RSS before',
          'RSS peak',
          'RSS samples (max gap ms)',
        ],
        run.exports.map((e) => [
          e.label,
          e.outcome.status === 404
            ? '404 – not built yet'
            : `${e.outcome.status}${e.outcome.error ? ` (${e.outcome.error})` : ''}`,
          int(e.outcome.bytes),
          int(e.outcome.lines),
          ms(e.outcome.firstByteMs),
          (e.outcome.totalMs / 1000).toFixed(2),
          mb(e.rssBeforeBytes),
          mb(e.rssPeakBytes),
          `${e.samples} (${ms(e.maxSampleGapMs)})`,
        ]),
      ),
    );
    const last = run.exports[run.exports.length - 1]!;
    const peak = Math.max(...run.exports.map((e) => e.rssPeakBytes));
    const growth = Math.max(...run.exports.map((e) => e.rssPeakBytes - e.rssBeforeBytes));
    const built = last.outcome.status >= 200 && last.outcome.status <= 299;
    const rows = Math.max(0, last.outcome.lines - 1);
    // PGlite's WebAssembly heap lives in this process (~770 MB resident from the moment it opens,
    // before any data), so on PGlite the export is judged on what it adds to the RSS.
    const memoryOk =
      run.kind === 'pglite'
        ? growth < EXPORT_MAX_RSS_MB * 1024 * 1024
        : peak < EXPORT_MAX_RSS_MB * 1024 * 1024;
    targets.push([
      `history export of 100k rows < ${EXPORT_MAX_S} s, peak RSS < ${EXPORT_MAX_RSS_MB} MB` +
        (run.kind === 'pglite' ? ' (PGlite: RSS growth during the export)' : ''),
      built
        ? `${(last.outcome.totalMs / 1000).toFixed(2)} s for ${int(rows)} rows (${int(run.expectedExportRows ?? 0)} expected), ` +
          `peak RSS ${mb(peak)} (+${mb(growth)} during the download)`
        : `${last.outcome.status === 404 ? '404 – not built yet' : `status ${last.outcome.status}`}`,
      verdict(built ? last.outcome.totalMs < EXPORT_MAX_S * 1000 && memoryOk : false),
    ]);
  }

  const hb = run.heartbeat;
  if (hb) {
    lines.push(
      '',
      `### Heartbeats at ${HEARTBEAT_RATE} req/s (autocannon overallRate, ${HEARTBEAT_CONNECTIONS} connections, ` +
        `${HEARTBEAT_DEVICES} headsets, ${HEARTBEAT_S} s)`,
      '',
      table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'answered', 'failed'],
        [
          ['bare route (reference)', hb.bare],
          ['heartbeat · idle', hb.idle],
          ['heartbeat · admin loop running', hb.loaded],
        ].map(([name, l]) => {
          const load = l as LoadOutcome;
          return [
            name as string,
            load.requestsPerSecond.toFixed(0),
            ms(load.p50),
            ms(load.p99),
            ms(load.max),
            int(load.ok),
            int(load.non2xx + load.errors + load.timeouts),
          ];
        }),
      ),
      '',
      `Server event loop, worst delay: ${ms(hb.loopDelayMaxIdleMs)} ms idle, ${ms(hb.loopDelayMaxLoadedMs)} ms under the admin loop. ` +
        `Admin loop meanwhile: ` +
        hb.loop.iterations
          .map(
            (i) =>
              `${i.name} ×${i.count} (statuses ${JSON.stringify(i.statuses)}, mean ${ms(i.msTotal / Math.max(1, i.count))} ms, max ${ms(i.msMax)} ms)`,
          )
          .join('; ') +
        '.',
    );
    const ratio = hb.loaded.p99 / Math.max(0.1, hb.idle.p99);
    const limit = HEARTBEAT_MAX_RATIO[run.kind];
    targets.push([
      `heartbeat p99 under admin load ≤ ${limit} × idle`,
      `${ms(hb.loaded.p99)} ms vs ${ms(hb.idle.p99)} ms idle (${ratio.toFixed(2)} ×)`,
      verdict(ratio <= limit && hb.loaded.ok > 0),
    ]);
  }
  if (run.kind === 'pglite' && run.servingRssPeakBytes !== undefined) {
    targets.push([
      `server RSS peak < ${PGLITE_SERVING_MAX_RSS_MB} MB while serving the benchmark (sampled every 100 ms)`,
      mb(run.servingRssPeakBytes),
      verdict(run.servingRssPeakBytes < PGLITE_SERVING_MAX_RSS_MB * 1024 * 1024),
    ]);
  }
  return { lines, targets };
}

export function staticReport(result: StaticResult | undefined): {
  lines: string[];
  targets: string[][];
} {
  if (!result) return { lines: [], targets: [] };
  const lines = [
    '## Static files: GET /login (accept-encoding: br, gzip) and everything its HTML references',
    '',
    table(
      ['file', 'status', 'bytes sent', 'content-encoding', 'cache-control'],
      result.files.map((f) => [f.path, String(f.status), int(f.bytes), f.encoding, f.cacheControl]),
      'lrrll',
    ),
    '',
    `Total transferred: ${kb(result.totalBytes)} (${int(result.totalBytes)} bytes). Chunks the app loads ` +
      'lazily after start-up (the login route’s own, if split) are not referenced by the HTML and not counted.',
  ];
  const targets = [
    [
      '/login ≤ 200 KB transferred',
      `${kb(result.totalBytes)} in ${result.files.length} files`,
      verdict(result.indexStatus === 200 && result.totalBytes <= LOGIN_MAX_BYTES),
    ],
    [
      `hashed assets \`Cache-Control: ${IMMUTABLE}\``,
      result.hashedAsset
        ? `${result.hashedAsset.path}: \`${result.hashedAsset.cacheControl}\`; index.html: \`${result.indexCacheControl}\``
        : 'no hashed asset found',
      verdict(result.hashedAsset ? result.hashedAsset.cacheControl === IMMUTABLE : false),
    ],
  ];
  return { lines, targets };
}

// ---------------------------------------------------------------------------------------------
