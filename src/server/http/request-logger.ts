import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** What pino's loggers have: which levels are written. */
type LevelAwareLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * `request.log`, made only when a line is written. Fastify gives every request a child logger
 * with its request id; pino builds a child by running our redaction paths over its bindings,
 * a measurable share of a small API request's work, for a logger most requests never
 * write to at the production level. Lines that are written carry the same bindings: the child
 * is made on the first one.
 */
export class RequestLogger implements FastifyBaseLogger {
  readonly #parent: LevelAwareLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: LevelAwareLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #made(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  #write(level: Level, args: unknown[]): void {
    // Until the child is made its level is the parent's (a route's own level makes it at once).
    if (!this.#child && !this.#parent.isLevelEnabled(level)) return;
    const child = this.#made();
    (child[level] as (...args: unknown[]) => void).apply(child, args);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`, for a pino logger. */
export function requestLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route's own log level, or a logger that cannot say which levels it writes: as Fastify does.
  if (options.level !== undefined || !isLevelAware(logger)) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings, options);
}

function isLevelAware(logger: FastifyBaseLogger): logger is LevelAwareLogger {
  return typeof (logger as Partial<LevelAwareLogger>).isLevelEnabled === 'function';
}
