import type { DestinationStream } from 'pino';
import { HttpException, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '@app/config';
import type { EventStore } from '@app/event-store';
import { createLogger, Metrics, PinoNestLogger } from '@app/infrastructure';
import helmet, { type HelmetOptions } from 'helmet';
import multipart from '@fastify/multipart';
import { MAX_STATEMENT_BYTES } from '@app/payments';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mountQueueDashboard } from '../operations/queue-dashboard';
import { logRequests } from '../operations/request-logging';
import { ProblemFilter, sendProblem } from '../problem.filter';
import { refuseNonJsonBodies, refuseUnstorableInput } from '../request-input.hooks';
import { RequestValidationPipe } from '../validation.pipe';
import { HttpServiceModule } from './http-service.module';

/** docs/concepts/money-and-validation.md: bodies over 256 KiB are refused before they are parsed. */
export const BODY_LIMIT_BYTES = 256 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What an app serves over HTTP (apps/api's REST edge, apps/web's faces): its modules and what it mounts around them. */
export interface HttpWing {
  /** Imported by the process's module beside the others (so their controllers keep the order Nest scans them in). */
  modules: readonly Type[];
  /** Fastify plugins its routes need (cookies, forms), registered before any route. */
  plugins?(fastify: FastifyInstance, config: AppConfig): Promise<void>;
  /** What it mounts once the app is composed (the OpenAPI document and its UI). */
  mount?(app: NestFastifyApplication): void;
}

export interface ServedRoute {
  method: string;
  url: string;
}

const routeTables = new WeakMap<NestFastifyApplication, ServedRoute[]>();

/** Every route the app registered (for tests that must cover each one: OpenAPI, authorisation). */
export function servedRoutes(app: NestFastifyApplication): ServedRoute[] {
  return routeTables.get(app) ?? [];
}

export interface HttpAppOptions {
  /** Where JSON logs go (stdout by default). */
  logDestination?: DestinationStream;
  /** An event store to use instead of the configured one. */
  eventStore?: EventStore;
}

/** An HTTP process serving `wings` on Fastify, with the request handling every wing shares. */
export async function createHttpApp(config: AppConfig, wings: readonly HttpWing[], options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
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
  const module = HttpServiceModule.forRoot(config, { wings: wings.flatMap((wing) => wing.modules), eventStore: options.eventStore });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
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
  // Hooks every request runs take a callback, not a promise: Fastify then has no promise of theirs to settle.
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  // Pages set their own CSP (checkout, Swagger UI); helmet's other protective headers go on every response.
  const protective = helmetHeaders({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  fastify.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of protective) reply.raw.setHeader(name, value);
    done();
  });
  // Multipart bodies for the routes that read their parts: the API's document upload (with limits of its own) and
  // the consoles' upload forms (apps/web/src/kit/web-plugins.ts), the largest a provider's statement. Registered
  // once here, since a process serving both wings could not register it twice.
  await fastify.register(multipart, { limits: { fileSize: MAX_STATEMENT_BYTES, files: 1, fields: 10, parts: 11 } });
  for (const wing of wings) await wing.plugins?.(fastify, config);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', String(request.id));
    done(null, payload);
  });
  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(new RequestValidationPipe());
  for (const wing of wings) wing.mount?.(app);
  await mountQueueDashboard(app, config);
  return app;
}

/**
 * The headers helmet sets with these options. Without a CSP they are the same on every response, and helmet's
 * middleware works them out anew on each, so they are worked out once here and set as helmet sets them: on the raw
 * response, before the route runs.
 */
function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  // It also removes X-Powered-By, which neither Node nor Fastify sets.
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, value]), removeHeader: () => undefined };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}
