import type { IncomingMessage } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
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

/** JSON logs (pino): one line per request with its id, which is also the correlation id of its events. */
export function loggingModule(config: AppConfig, destination?: DestinationStream) {
  const options = {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
    genReqId: (request: IncomingMessage) => (request as IncomingMessage & { id?: string }).id ?? 'unknown',
    customProps: (request: IncomingMessage) => ({ correlationId: (request as IncomingMessage & { id?: string }).id }),
  };
  return LoggerModule.forRoot({
    pinoHttp: destination ? [options, destination] : options,
    forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
  });
}
