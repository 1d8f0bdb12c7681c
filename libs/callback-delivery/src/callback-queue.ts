import type { Timed } from '@app/scheduling';

/** One try at delivering a callback. Attempts are numbered over the delivery's whole life. */
export interface CallbackJob extends Timed {
  deliveryId: string;
  attempt: number;
  /** 0, then one more per redelivery request: a redelivery must not wait behind a retry queued for later. */
  round: number;
}

export const CALLBACK_QUEUE = Symbol('CALLBACK_QUEUE');
export const CALLBACK_QUEUE_NAME = 'callbacks';

/** The first attempt's job id is the delivery id itself; BullMQ then refuses a second first attempt. */
export function callbackJobId(job: CallbackJob): string {
  if (job.round > 0) return `${job.deliveryId}.${job.attempt}.r${job.round}`;
  return job.attempt === 1 ? job.deliveryId : `${job.deliveryId}.${job.attempt}`;
}
