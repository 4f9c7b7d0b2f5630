import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';

/**
 * Headsets holding the push channel open (GET /v1/headset/events?wait=30) while the heartbeat is
 * measured, as a fleet of SDK clients would: each call is made again as soon as it is answered.
 * They run in a child process, so the server's process (the benchmark's) pays only the server's
 * side of them, in CPU and in memory.
 */
export interface PushHolders {
  stop(): void;
}

export function startPushHolders(url: string, tokensFile: string, count: number): PushHolders {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, url, tokensFile, String(count)],
    { stdio: 'ignore' },
  );
  return { stop: () => void child.kill() };
}

function hold(url: string, tokens: string[], count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const call = (token: string) => {
    const request = http.get(
      `${url}/v1/headset/events?wait=30`,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        response.resume();
        response.on('end', () => call(token));
      },
    );
    request.on('error', () => setTimeout(() => call(token), 1000));
  };
  for (const token of tokens.slice(0, count)) call(token);
}

if (process.argv[1] === import.meta.filename) {
  const [url, tokensFile, count] = process.argv.slice(2);
  hold(url!, JSON.parse(fs.readFileSync(tokensFile!, 'utf8')) as string[], Number(count));
}
