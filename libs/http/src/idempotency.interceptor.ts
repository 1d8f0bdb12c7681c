import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, type OnApplicationShutdown } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { catchError, defer, finalize, from, map, mergeMap, type Observable, of } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { fingerprint } from '@app/domain';
import { ClaimHeartbeat, IdempotencyStore, keyedRequestDigest } from '@app/infrastructure';
import { ANSWERS_WITH_LIVEMODE, answerWithLivemode } from './livemode';
import { ApiError, renderProblem, toProblem } from './problem';
import type { RequestWithActor } from './request-context';
import { refuseUndeclaredBody } from './undeclared-body';

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 50;

/**
 * `Idempotency-Key` on any POST: the first request's response (status and body) is kept for 24 hours,
 * sealed (libs/infrastructure/src/idempotency/idempotency.store.ts), and replayed for the same key and body; the same key with another body is refused. The key is
 * claimed before the handler runs, so two concurrent requests with one key have one effect.
 *
 * The response is kept after the handler's events are written, so a crash in between would lose it:
 * the events therefore carry a digest of the key and request (`metadata.idempotency`), and a retry
 * that takes over the claim runs the command again, which finds those events and answers as the
 * first attempt did instead of deciding anew (libs/infrastructure/src/idempotency/keyed-replay.ts).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor, OnApplicationShutdown {
  private readonly store: IdempotencyStore;
  private readonly heartbeat: ClaimHeartbeat;

  constructor(@Inject(SQL_CLIENT) db: SqlClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.store = new IdempotencyStore(db, config.secretsKey);
    this.heartbeat = new ClaimHeartbeat(this.store);
  }

  onApplicationShutdown(): void {
    this.heartbeat.stop();
  }

  /**
   * The one interceptor every route has: besides idempotent POSTs, it refuses bodies a route does not declare
   * (undeclared-body.ts) and puts `livemode` on the merchant API's answers (livemode.ts), inside what a key keeps.
   * They are one since each interceptor costs every request an rxjs pipeline of Nest's.
   */
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined) return handled(context, next);
    return from(this.handle(request, context.switchToHttp().getResponse<FastifyReply>(), key, defer(() => handled(context, next)))).pipe(mergeMap((result) => result));
  }

  private async handle(request: RequestWithActor, reply: FastifyReply, key: string | string[], handler: Observable<unknown>): Promise<Observable<unknown>> {
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw new ApiError(400, 'BadRequestException', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const path = request.url.split('?')[0];
    // A platform's key acting for one of its accounts keeps a scope per account: the same key and body
    // sent for two accounts are two requests.
    const scope = request.actor ? `${request.actor.type}:${request.actor.id}${request.acting ? `:${request.acting.merchantId}` : ''}` : 'public';
    const requestHash = fingerprint({ path, body: request.body ?? null });
    const owner = randomUUID();
    let claim = await this.store.claim(scope, key, requestHash, owner);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    while (claim.kind === 'in_progress' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      claim = await this.store.claim(scope, key, requestHash, owner);
    }
    switch (claim.kind) {
      case 'mismatch':
        throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
      case 'in_progress':
        throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly');
      case 'completed': {
        void reply.status(claim.statusCode).header('idempotent-replayed', 'true');
        if (!claim.problem) return of(JSON.parse(claim.body));
        // The envelope is what is kept; it is sent in the shape this request's Accept asks for.
        const { contentType, payload } = renderProblem(claim.statusCode, JSON.parse(claim.body), request.headers.accept);
        void reply.header('content-type', contentType);
        return of(payload);
      }
      case 'claimed':
        request.idempotency = keyedRequestDigest(scope, key, requestHash);
        this.heartbeat.hold(owner);
        return handler.pipe(
          mergeMap(async (body) => {
            await this.store.complete(scope, key, owner, reply.statusCode, JSON.stringify(body), false);
            return body;
          }),
          catchError(async (error: unknown) => {
            const problem = toProblem(error, path);
            if (problem.statusCode >= 500) {
              await this.store.release(scope, key, owner).catch(() => undefined);
              throw error;
            }
            await this.store.complete(scope, key, owner, problem.statusCode, JSON.stringify(problem.body), true);
            // Answer with the very problem that was stored (the filter would render a new one, with
            // another timestamp), so a replay with the same Accept is byte for byte the first response.
            const { contentType, payload } = renderProblem(problem.statusCode, problem.body, request.headers.accept);
            void reply
              .status(problem.statusCode)
              .headers(problem.headers ?? {})
              .header('content-type', contentType);
            return payload;
          }),
          finalize(() => this.heartbeat.drop(owner)),
        );
    }
  }
}

/** The route's handler once its body is known to be one it reads, its answer marked with its mode on the merchant API. */
function handled(context: ExecutionContext, next: CallHandler): Observable<unknown> {
  refuseUndeclaredBody(context);
  const answer = next.handle();
  if (!answersWithLivemode(context)) return answer;
  const mode = context.switchToHttp().getRequest<RequestWithActor>().merchant?.mode;
  return answer.pipe(map((body) => answerWithLivemode(body, mode)));
}

const livemodeRoutes = new WeakMap<object, boolean>();

function answersWithLivemode(context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let answers = livemodeRoutes.get(handler);
  if (answers === undefined) {
    answers = Boolean(Reflect.getMetadata(ANSWERS_WITH_LIVEMODE, handler) ?? Reflect.getMetadata(ANSWERS_WITH_LIVEMODE, context.getClass()));
    livemodeRoutes.set(handler, answers);
  }
  return answers;
}
