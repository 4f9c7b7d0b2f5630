import os from 'node:os';

/** What every benchmark prints and parses the same way. */

/** Writes one line of the report to standard output. */
export const say = (line = '') => process.stdout.write(`${line}\n`);

/** The machine's load average over 1, 5 and 15 minutes, printed beside every figure. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

/** `--name=value` and `--flag` arguments; anything else is refused. */
export function cliArgs(argv = process.argv.slice(2)): Map<string, string> {
  const args = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`Unknown argument ${arg}`);
    args.set(match[1]!, match[2] ?? 'true');
  }
  return args;
}
