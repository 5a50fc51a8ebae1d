import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/**
 * A request's logger that makes pino's child (the parent's bindings and the request id) only when the request
 * first logs. Most requests write nothing (the access log is sampled and failures and slow requests only are
 * always written), and a pino child for each one cost about as much as the health check's own work (issue 21,
 * ADR 0047). What it writes, and with which bindings, is what the child would write.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private child_: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child, made on first use. */
  private real(): FastifyBaseLogger {
    this.child_ ??= this.parent.child(this.bindings, this.options);
    return this.child_;
  }

  private write(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    this.real()[method](...(args as Parameters<FastifyBaseLogger['info']>));
  }

  get level(): string {
    return this.child_?.level ?? this.options.level ?? this.parent.level;
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

  silent(): void {
    // pino's silent level writes nothing
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: the request's logger, made lazily (above). */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
