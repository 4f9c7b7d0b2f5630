import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { LoadRequest, LoadResult } from './load-runner.ts';

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

  /** Heartbeats with the devices' tokens in turn, or `call` (another route) when given. */
  run(
    url: string,
    durationS: number,
    call?: LoadRequest['call'] & { body: string; connections: number },
  ): Promise<LoadResult> {
    const request: LoadRequest = {
      url,
      path: call?.paths[0] ?? '/v1/headset/heartbeat',
      body: call?.body ?? JSON.stringify({ battery_percent: 87, app_version: '1.5.0' }),
      connections: call?.connections ?? this.connections,
      durationS,
      tokensFile: this.tokensFile,
      ...(call ? { call: { method: call.method, paths: call.paths, token: call.token } } : {}),
    };
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

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}
