import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  parseLogLines,
  REPOSITORY_ROOT,
  startServerProcess,
  stopServerProcess,
  type LogLine,
  type ServerProcess,
} from '../server-process.ts';
import { waitFor } from '../wait-for.ts';

/**
 * A multi-node deployment on this machine, as docs/operations.md describes it: N server processes
 * (`node apps/server/dist/main.js`, built when stale) on one PostgreSQL database, sharing one
 * DATA_DIR (the builds) and one SIGNING_SECRET, behind a real nginx running deploy/nginx.conf with
 * only the upstream addresses, the listen address and the access log path substituted. Used by the cluster
 * tests and by `npm run bench:cluster`.
 */

export const DOCUMENTED_NGINX_CONF = path.join(REPOSITORY_ROOT, 'deploy/nginx.conf');

/** nginx from PATH or Debian's /usr/sbin/nginx; undefined when the machine has none. */
export function findNginx(): string | undefined {
  for (const candidate of [process.env.NGINX, '/usr/sbin/nginx', 'nginx']) {
    if (!candidate) continue;
    const probe = spawnSync(candidate, ['-v'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

/** A free TCP port on 127.0.0.1 (the kernel's pick, released at once for the caller to bind). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface NginxSubstitutions {
  /** host:port of each node, in order. */
  upstreams: string[];
  /** What `listen` gets, e.g. 127.0.0.1:8080. */
  listen: string;
  accessLog: string;
}

/**
 * deploy/nginx.conf with the machine-specific parts replaced, and nothing else: each replacement
 * must match exactly where the documented file has it, or this throws (so the tests cannot drift
 * from what users install).
 */
export function renderNginxConf(template: string, substitutions: NginxSubstitutions): string {
  const replaceOnce = (text: string, pattern: RegExp, replacement: string, what: string) => {
    const matches = text.match(new RegExp(pattern.source, 'gm'));
    if (matches?.length !== 1) {
      throw new Error(`deploy/nginx.conf: expected one ${what}, found ${matches?.length ?? 0}`);
    }
    return text.replace(new RegExp(pattern.source, 'm'), replacement);
  };
  const servers = template.match(/^ {4}server \S+ (max_fails=.*);$/gm);
  if (!servers || servers.length === 0) throw new Error('deploy/nginx.conf: no upstream servers');
  const options = /^ {4}server \S+ (max_fails=.*);$/m.exec(servers[0]!)![1];
  let text = template.replace(/^ {4}server \S+ max_fails=.*;\n/gm, '');
  text = replaceOnce(
    text,
    /^upstream vrtc_nodes \{\n/,
    `upstream vrtc_nodes {\n${substitutions.upstreams.map((u) => `    server ${u} ${options};\n`).join('')}`,
    'upstream block',
  );
  text = replaceOnce(text, /^ {4}listen 80;$/, `    listen ${substitutions.listen};`, 'listen');
  text = replaceOnce(
    text,
    /^ {4}access_log \/var\/log\/nginx\/vrtc\.access\.log vrtc_json;$/,
    `    access_log ${substitutions.accessLog} vrtc_json;`,
    'access_log',
  );
  return text;
}

/** The http-level frame Debian's /etc/nginx/nginx.conf gives conf.d files, in a private prefix. */
export function nginxMainConf(dir: string, include: string, workerProcesses: string): string {
  const temp = (name: string) => path.join(dir, name);
  return [
    'daemon off;',
    `worker_processes ${workerProcesses};`,
    `pid ${temp('nginx.pid')};`,
    `error_log ${temp('error.log')} warn;`,
    // As root, workers would switch to an unprivileged user that cannot write this directory.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'events { worker_connections 4096; }',
    'http {',
    `  client_body_temp_path ${temp('client_body')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    `  include ${include};`,
    '}',
    '',
  ].join('\n');
}

export interface Nginx {
  url: string;
  process: ChildProcess;
  accessLog(): string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** Checks the configuration (`nginx -t`), then runs nginx in the foreground until stopped. */
export async function startNginx(options: {
  nginx: string;
  dir: string;
  port: number;
  upstreams: string[];
  workerProcesses?: string;
}): Promise<Nginx> {
  const { dir } = options;
  fs.mkdirSync(dir, { recursive: true });
  const site = path.join(dir, 'vrtc.conf');
  const accessLog = path.join(dir, 'access.log');
  fs.writeFileSync(
    site,
    renderNginxConf(fs.readFileSync(DOCUMENTED_NGINX_CONF, 'utf8'), {
      upstreams: options.upstreams,
      listen: `127.0.0.1:${options.port}`,
      accessLog,
    }),
  );
  const main = path.join(dir, 'nginx.conf');
  fs.writeFileSync(main, nginxMainConf(dir, site, options.workerProcesses ?? '1'));
  const check = spawnSync(
    options.nginx,
    ['-t', '-q', '-p', dir, '-c', main, '-e', path.join(dir, 'error.log')],
    {
      encoding: 'utf8',
    },
  );
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const child = spawn(options.nginx, ['-p', dir, '-c', main, '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode})`);
      return new Promise<boolean>((resolve) => {
        const socket = net.connect(options.port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
    },
    { timeout: 10_000, interval: 50, what: 'nginx to listen' },
  ).catch((error: Error) => {
    throw new Error(`nginx did not listen: ${error.message}\n${stderr}`);
  });
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  return {
    url,
    process: child,
    accessLog: () => read(accessLog),
    errorLog: () => read(path.join(dir, 'error.log')),
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

export interface ClusterNode {
  index: number;
  port: number;
  /** http://127.0.0.1:PORT, bypassing nginx. */
  url: string;
  process: ServerProcess;
  metricsUrl: string;
}

export interface ClusterOptions {
  nodes: number;
  /** A PostgreSQL server (its /postgres database or any); the cluster creates its own database. */
  serverUrl: string;
  nginx: string;
  /** Extra environment for every node. */
  env?: Record<string, string>;
  workerProcesses?: string;
}

export const CLUSTER_ADMIN = { email: 'admin@cluster.test', password: 'cluster-admin-pw' };

export class Cluster {
  private readonly logsOfExited: string[][] = [];

  private constructor(
    readonly dir: string,
    readonly databaseName: string,
    readonly databaseUrl: string,
    private readonly serverUrl: string,
    readonly nodes: ClusterNode[],
    readonly nginx: Nginx,
    private readonly nodeEnv: Record<string, string>,
  ) {
    this.logsOfExited = nodes.map(() => []);
  }

  /** nginx's address: where clients go. */
  get url(): string {
    return this.nginx.url;
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-cluster-'));
    const databaseName = `vrtc_cluster_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: options.serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(options.serverUrl);
    url.pathname = `/${databaseName}`;
    const databaseUrl = url.toString();

    const nginxPort = await freePort();
    const dataDir = path.join(dir, 'data');
    // What operations.md asks of every node: the same secret, the public address, the proxy.
    const nodeEnv: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SIGNING_SECRET: 'cluster-signing-secret',
      PUBLIC_URL: `http://127.0.0.1:${nginxPort}`,
      TRUST_PROXY: '127.0.0.1',
      METRICS_PORT: '0',
      DRAIN_DELAY_MS: '5000',
      ADMIN_EMAIL: CLUSTER_ADMIN.email,
      ADMIN_PASSWORD: CLUSTER_ADMIN.password,
      ...options.env,
    };
    const dropDatabase = async () => {
      const cleanup = new pg.Client({ connectionString: options.serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await cleanup.end();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    // All at once on an empty database: migrations and the first admin happen exactly once.
    const started = await Promise.allSettled(
      Array.from({ length: options.nodes }, () => startServerProcess(nodeEnv)),
    );
    const processes = started.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    );
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) {
      await Promise.all(processes.map((p) => stopServerProcess(p, 'SIGKILL')));
      await dropDatabase();
      throw failed.reason;
    }
    const nodes = processes.map((process, index) => {
      const port = Number(new URL(process.url).port);
      return { index, port, url: process.url, process, metricsUrl: process.metricsUrl! };
    });
    const nginx = await startNginx({
      nginx: options.nginx,
      dir: path.join(dir, 'nginx'),
      port: nginxPort,
      upstreams: nodes.map((node) => `127.0.0.1:${node.port}`),
      workerProcesses: options.workerProcesses,
    }).catch(async (error: unknown) => {
      await Promise.all(processes.map((p) => stopServerProcess(p, 'SIGKILL')));
      await dropDatabase();
      throw error;
    });
    return new Cluster(dir, databaseName, databaseUrl, options.serverUrl, nodes, nginx, nodeEnv);
  }

  /** Stops node `index` with `signal` and waits for its exit code. */
  async stopNode(index: number, signal: NodeJS.Signals): Promise<number | null> {
    const node = this.nodes[index]!;
    const code = await stopServerProcess(node.process, signal);
    this.logsOfExited[index]!.push(node.process.output());
    return code;
  }

  /** Starts node `index` again on its port (nginx knows it there). */
  async restartNode(index: number): Promise<void> {
    const node = this.nodes[index]!;
    node.process = await startServerProcess({ ...this.nodeEnv, PORT: String(node.port) });
    node.metricsUrl = node.process.metricsUrl!;
  }

  /** Starts again any node that has exited (a test that stopped one and failed before). */
  async ensureAllRunning(): Promise<void> {
    for (const node of this.nodes) {
      const { child } = node.process;
      if (child.exitCode === null && child.signalCode === null) continue;
      await this.stopNode(node.index, 'SIGTERM');
      await this.restartNode(node.index);
    }
  }

  /** Every log line node `index` wrote, across its restarts. */
  logsOf(index: number): LogLine[] {
    const node = this.nodes[index]!;
    return [...this.logsOfExited[index]!, node.process.output()].flatMap(parseLogLines);
  }

  /** Which node logged the request with this X-Request-Id (its request line's client_request_id). */
  servedBy(requestId: string): number | undefined {
    const index = this.nodes.findIndex((node) =>
      this.logsOf(node.index).some(
        (line) => line.client_request_id === requestId && line.msg === 'request',
      ),
    );
    return index >= 0 ? index : undefined;
  }

  /**
   * servedBy, once the line is there: a node writes its request line after the answer is sent,
   * so it may reach us a moment after the answer does.
   */
  servedByEventually(requestId: string, timeoutMs = 3000): Promise<number | undefined> {
    return waitFor(() => this.servedBy(requestId), {
      timeout: timeoutMs,
      interval: 25,
    }).catch(() => undefined);
  }

  /** One node's metrics, as `name{labels}` → value. */
  async metrics(index: number): Promise<Map<string, number>> {
    const text = await (await fetch(this.nodes[index]!.metricsUrl)).text();
    const found = new Map<string, number>();
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const at = line.lastIndexOf(' ');
      found.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
    return found;
  }

  /** A metric summed over every running node. */
  async metricSum(sample: string): Promise<number> {
    let sum = 0;
    for (const node of this.nodes) {
      if (node.process.child.exitCode !== null) continue;
      sum += (await this.metrics(node.index)).get(sample) ?? 0;
    }
    return sum;
  }

  async stop(): Promise<void> {
    await this.nginx.stop();
    await Promise.all(this.nodes.map((node) => stopServerProcess(node.process, 'SIGTERM')));
    const admin = new pg.Client({ connectionString: this.serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${this.databaseName} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Answer {
  /** 0 when the connection failed. */
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // Parsed JSON body (tests read fields of it).
  body: Record<string, unknown> & { [key: string]: unknown };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * An HTTP call with node:http, which (unlike fetch) can send from another loopback address
 * (`from`: 127.0.0.2, …), so nginx sees distinct clients and the nodes must key limits on the
 * address nginx reports in X-Forwarded-For, not on nginx's own.
 */
export function call(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    from?: string;
  } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: options.method ?? (payload ? 'POST' : 'GET'),
        agent,
        localAddress: options.from,
        headers: {
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let body: Answer['body'] = {};
          try {
            body = JSON.parse(text) as Answer['body'];
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body });
        });
        response.on('error', () => resolve({ status: 0, headers: {}, text: '', body: {} }));
      },
    );
    request.on('error', (error) =>
      resolve({ status: 0, headers: {}, text: error.message, body: {} }),
    );
    request.end(payload);
  });
}

export const bearerHeader = (token: string) => ({ authorization: `Bearer ${token}` });
