import type { DestinationStream } from 'pino';
import { HttpException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '@app/config';
import type { EventStore } from '@app/event-store';
import helmet from '@fastify/helmet';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module';
import { createLogger, Metrics, PinoNestLogger } from '@app/infrastructure';
import { logRequests } from './operations/request-logging';
import { ProblemFilter, sendProblem, RequestValidationPipe } from '@app/http';
import { refuseNonJsonBodies, refuseUnstorableInput } from './http/request-input.hooks';
import { mountQueueDashboard } from './operations/queue-dashboard';
import { UndeclaredBodyInterceptor } from './http/undeclared-body.interceptor';
import { registerWebPlugins } from '../../web/src';
import { buildOpenApiDocument } from './http/openapi/document';

/** docs/concepts/money-and-validation.md: bodies over 256 KiB are refused before they are parsed. */
export const BODY_LIMIT_BYTES = 256 * 1024;


const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const API_DESCRIPTION = `Payment orders, escrow orders with merchant allocations, verification, signed callbacks, payouts and the audit API.

Successes are \`{status: "success", timestamp, message, data}\`; errors are the envelope
\`{status: "error", timestamp, path, message, error: {code, message}}\` as \`application/json\`, or, when the
request's \`Accept\` prefers \`application/problem+json\`, RFC 9457 problem details (\`type\` is
\`urn:escrow-ledger:problem:{code}\`, \`status\` the HTTP status) with the envelope's fields as extension members.
Each operation lists the statuses it answers and, for each refusal, its codes (all of them explained in
docs/reference/errors.md of the repository).

Every POST accepts an \`Idempotency-Key\` header.`;

export interface ServedRoute {
  method: string;
  url: string;
}

const routeTables = new WeakMap<NestFastifyApplication, ServedRoute[]>();

/** Every route the app registered (for tests that must cover each one: OpenAPI, authorisation). */
export function servedRoutes(app: NestFastifyApplication): ServedRoute[] {
  return routeTables.get(app) ?? [];
}

export interface AppOptions {
  /** Where JSON logs go (stdout by default). */
  logDestination?: DestinationStream;
  /** An event store to use instead of the configured one. */
  eventStore?: EventStore;
}

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // A caller's request id is kept (it becomes the events' correlation id) when it is a sane token.
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      // Kept on the raw request too, so the HTTP log line and the events carry the same id.
      (request as IncomingMessage & { id?: string }).id = id;
      return id;
    },
    // Slow clients (a head or body trickled in, a connection that sends nothing) are cut off with a 408;
    // Node checks every connectionsCheckingInterval, so it is kept well under the shortest timeout. These
    // bound what the client sends only: a request received is never cut while the service waits on it
    // (read-your-writes, a payout's wait for the ledger), so no silent-connection timeout (Fastify's
    // connectionTimeout) is set, which would (docs/operations/running.md#timeouts).
    requestTimeout: config.httpTimeouts.requestMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    http: {
      headersTimeout: config.httpTimeouts.headersMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.httpTimeouts.headersMs / 4)),
    },
    // What Fastify refuses before routing (a malformed URL, an overlong path parameter) leaves in the problem shape too.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendProblem(new HttpException(error.message, error.statusCode ?? 400), request, reply),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options), adapter, {
    bufferLogs: true,
    // Provider notifications are authenticated over the exact bytes received.
    rawBody: true,
  });
  const logger = createLogger(config, options.logDestination);
  app.useLogger(new PinoNestLogger(logger));
  const fastify = app.getHttpAdapter().getInstance();
  logRequests(fastify, logger);
  const routes: ServedRoute[] = [];
  routeTables.set(app, routes);
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  fastify.addHook('onRequest', refuseNonJsonBodies);
  fastify.addHook('preValidation', refuseUnstorableInput);
  const metrics = app.get(Metrics);
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  // Pages set their own CSP (checkout, Swagger UI); helmet adds the other protective headers everywhere.
  await fastify.register(helmet, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  // Cookies and CSRF tokens for the dashboard and audit console forms.
  await registerWebPlugins(fastify, config);
  fastify.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', String(request.id));
    return payload;
  });
  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(new RequestValidationPipe());
  app.useGlobalInterceptors(new UndeclaredBodyInterceptor());

  const document = buildOpenApiDocument(app, API_DESCRIPTION);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
  await mountQueueDashboard(app, config);
  return app;
}
