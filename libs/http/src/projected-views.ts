import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import { from, mergeMap, type Observable } from 'rxjs';
import { ProjectedReads } from '@app/infrastructure';
import type { FastifyRequest } from 'fastify';

@Injectable()
class AwaitProjectedViews implements NestInterceptor {
  constructor(@Inject(ProjectedReads) private readonly reads: ProjectedReads) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return from(this.reads.current(String(request.id))).pipe(mergeMap(() => next.handle()));
  }
}

/**
 * On a controller whose routes read views only the projector writes (the ledger, deliveries,
 * payouts, the audit's): each request is handled once those views include every write answered
 * before it arrived (ProjectedReads). Routes that read an order's or escrow's own view need nothing.
 */
export const ReadsProjectedViews = () => UseInterceptors(AwaitProjectedViews);
