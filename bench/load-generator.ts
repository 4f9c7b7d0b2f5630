import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { LoadRequest, LoadResult, StopRequest } from './load-runner.ts';

/**
 * Heartbeats sent by autocannon from a child process (load-runner.ts), so the process under
 * test keeps its CPU to itself; one load at a time. Each request uses the next device token of
 * `tokensFile`.
 */
export class LoadGenerator {
  private readonly child: ChildProcess;
  constructor(
    private readonly tokensFile: string,
    private readonly connections: number,
  ) {
    this.child = fork(path.join(import.meta.dirname, 'load-runner.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }

  /**
   * Heartbeats with the devices' tokens in turn, or `call` (another route) when given; `rate`
   * requests per second when given, else as fast as they are answered.
   */
  run(
    url: string,
    durationS: number,
    call?: LoadRequest['call'] & { body: string; connections: number },
    rate?: number,
  ): Promise<LoadResult> {
    return this.send({
      url,
      path: call?.paths[0] ?? '/v1/headset/heartbeat',
      body: call?.body ?? JSON.stringify({ battery_percent: 87, app_version: '1.5.0' }),
      connections: call?.connections ?? this.connections,
      durationS,
      tokensFile: this.tokensFile,
      ...(call ? { call: { method: call.method, paths: call.paths, token: call.token } } : {}),
      ...(rate ? { rate } : {}),
    });
  }

  private send(request: LoadRequest): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited (${code})`));
      this.child.once('exit', onExit);
      this.child.once('message', (result) => {
        this.child.off('exit', onExit);
        resolve(result as LoadResult);
      });
      this.child.send(request);
    });
  }

  /**
   * Heartbeats at `rate` per second from now until stop(), which answers their figures: a load
   * beside something else the benchmark does, for as long as that takes.
   */
  start(url: string, rate: number): { stop(): Promise<LoadResult> } {
    const running = this.send({
      url,
      path: '/v1/headset/heartbeat',
      body: JSON.stringify({ battery_percent: 87, app_version: '1.5.0' }),
      connections: this.connections,
      durationS: 3600,
      tokensFile: this.tokensFile,
      rate,
    });
    return {
      stop: () => {
        this.child.send({ stop: true } satisfies StopRequest);
        return running;
      },
    };
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}
