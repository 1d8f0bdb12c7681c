import type { Timed } from '../scheduling/scheduler.port';

/** One try at delivering a callback. Attempts are numbered over the delivery's whole life. */
export interface CallbackJob extends Timed {
  deliveryId: string;
  attempt: number;
}

export const CALLBACK_QUEUE = Symbol('CALLBACK_QUEUE');

/** The first attempt's job id is the delivery id itself; BullMQ then refuses a second first attempt. */
export function callbackJobId(job: CallbackJob): string {
  return job.attempt === 1 ? job.deliveryId : `${job.deliveryId}.${job.attempt}`;
}
