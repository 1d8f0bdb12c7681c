import { type CallHandler, Injectable, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { forWaitingCaller } from '@app/infrastructure';

/** Every request has a caller waiting for its answer: the commands it runs answer once the read models include them (read-your-writes.ts). */
@Injectable()
export class CallerWaitsInterceptor implements NestInterceptor {
  intercept(_: unknown, next: CallHandler): Observable<unknown> {
    return new Observable((subscriber) => forWaitingCaller(() => next.handle().subscribe(subscriber)));
  }
}
