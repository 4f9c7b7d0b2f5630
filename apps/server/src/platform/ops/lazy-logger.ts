import type { FastifyBaseLogger, RouteShorthandOptions } from 'fastify';

const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};
type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * A request's logger that becomes pino's child (with the request id) only when something is
 * logged at a level it lets through. Fastify makes a child logger for every request: for a route
 * that logs nothing on success (the heartbeat, the push channel) that child was a tenth or more of
 * the request's CPU, twice that with a route log level, which makes pino rebuild the child's
 * methods. A warning or an error is still written with the request id, as from any route.
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;
  private readonly threshold: number;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {
    this.threshold = LEVEL_VALUES[options?.level ?? parent.level] ?? 0;
  }

  get level(): string {
    return this.made?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  private write(level: Level, args: unknown[]): void {
    if (this.made === undefined && LEVEL_VALUES[level]! < this.threshold) return;
    (this.real()[level] as (...logged: unknown[]) => void)(...args);
  }

  private real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
}

/** A route's `childLoggerFactory` for hot routes: the request's logger made only when used. */
export const lazyChildLogger: NonNullable<RouteShorthandOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
