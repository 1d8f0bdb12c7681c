import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { AppConfig } from '@app/config';

/** Whatever a log line carries, credentials come out as [Redacted]. */
export const REDACTED_PATHS = [
  'req.headers["x-api-secret"]',
  'req.headers["x-admin-key"]',
  'req.headers["x-auditor-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.apiSecret',
  '*.api_secret',
  '*.webhookSecret',
  '*.auditorKey',
  '*.secret',
];

/** JSON logs (pino), to stdout unless a destination is given. */
export function createLogger(config: AppConfig, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[Redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Nest's start-up narration (a line per module and per route, a hundred and more): worth reading only when debugging. */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** NestJS's own logging (bootstrap, services' Logger) as pino lines, with the class as `context`. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  /** Nest passes the context last, and for errors a stack before it. */
  private write(given: Level, message: unknown, rest: unknown[]): void {
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const level = given === 'info' && context !== undefined && START_UP_CONTEXTS.has(context) ? 'debug' : given;
    if (!this.logger.isLevelEnabled(level)) return;
    const stack = level === 'error' && rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message instanceof Error) this.logger[level]({ context, err: message }, message.message);
    else if (message !== null && typeof message === 'object') this.logger[level]({ context, ...message });
    else this.logger[level]({ context, ...(stack ? { stack } : {}) }, String(message));
  }
}
