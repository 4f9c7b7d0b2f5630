import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from './lazy-logger.ts';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('lazyChildLogger (the hot routes’ request logger)', () => {
  it('makes no child for what its level drops, and writes the rest with the request id', async () => {
    const { lines, logger } = capture();
    let children = 0;
    const counting = Object.assign(Object.create(logger) as typeof logger, {
      child: (...args: Parameters<typeof logger.child>) => {
        children += 1;
        return logger.child(...args);
      },
    });
    const log = lazyChildLogger.call(
      undefined as never,
      counting,
      { reqId: 'r-1' },
      { level: 'warn' },
      undefined as never,
    );
    log.info('dropped');
    log.debug('dropped');
    expect(children).toBe(0);
    expect(log.level).toBe('warn');
    log.warn({ what: 'kept' }, 'a warning');
    log.error('an error');
    await flush();
    expect(children).toBe(1);
    expect(lines.map((line) => [line.reqId, line.msg])).toEqual([
      ['r-1', 'a warning'],
      ['r-1', 'an error'],
    ]);
  });

  it('follows the parent’s level when the route sets none', async () => {
    const { lines, logger } = capture();
    const log = lazyChildLogger.call(
      undefined as never,
      logger,
      { reqId: 'r-2' },
      {},
      undefined as never,
    );
    log.debug('dropped');
    log.info('kept');
    await flush();
    expect(lines.map((line) => line.msg)).toEqual(['kept']);
  });
});
