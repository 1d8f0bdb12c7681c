import type { RecordedEvent } from '@app/event-store';
import type { PaymentJob } from './payment-job';

/** One kind of payment work, as the reactor (payment-work.reactor.ts) composes it. */
export interface PaymentWork {
  /** The kinds of job it runs. */
  readonly kinds: readonly PaymentJob['kind'][];
  /** False where a failed run is not tried again on a doubling wait, because a reconcile pass queues it anew. */
  readonly retriedOnError: boolean;
  /** The jobs an appended event calls for that are due by `horizon` (later ones a reconcile pass queues). */
  jobsFor?(event: RecordedEvent, horizon: number): PaymentJob[];
  /** The jobs the read models say are due by `horizon`: queued again on every pass, so none is lost while a process or Redis was down. */
  due?(horizon: number): Promise<PaymentJob[]>;
  run(job: PaymentJob): Promise<void>;
}
