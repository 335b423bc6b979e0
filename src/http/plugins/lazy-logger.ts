import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
/** Fastify's logger is pino, which answers whether a level is enabled. */
type Logger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * Whether `logger` writes lines of `level`; true for a logger that cannot tell (Fastify's null logger writes
 * nothing anyway).
 */
export function writesLevel(logger: FastifyBaseLogger, level: Level): boolean {
  const { isLevelEnabled } = logger as Partial<Logger>;
  return typeof isLevelEnabled !== 'function' || isLevelEnabled.call(logger, level);
}

/**
 * Fastify's `childLoggerFactory`: each request's logger (`request.log`, with
 * the request id bound) is made only when something is logged at a level the
 * parent has enabled. Making a pino child serializes its bindings; at the
 * production levels most requests log nothing, so most never need one.
 */
export function lazyChildLogger(this: unknown, parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // Without a real logger (`logger: false`: Fastify's null logger) there is nothing to defer.
  if (typeof (parent as Partial<Logger>).isLevelEnabled !== 'function') return parent.child(bindings, options);
  return new LazyChild(parent as Logger, bindings, options) as unknown as FastifyBaseLogger;
}

class LazyChild {
  private made: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private real(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options) as Logger);
  }

  private log(level: Level, args: unknown[]): void {
    // A per-route logLevel (options.level) may enable more than the parent does.
    if (this.made || this.options.level !== undefined || this.parent.isLevelEnabled(level)) {
      (this.real()[level] as (...a: unknown[]) => void)(...args);
    }
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(value: string) {
    this.real().level = value;
  }

  isLevelEnabled(level: string): boolean {
    return this.made ? this.made.isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}
