import { fold } from '@app/domain';
import { given } from '../../domain/src/testing/given';
import { type DeliveryCommand, DeliveryNotFound, type DeliveryState, deliveryDecider, isGone, isSuccess, StaleAttempt } from './delivery.decider';
import type { CallbackEvent } from './delivery.events';

const DELIVERY_ID = 'dlv_0123456789abcdef0123456789abcdef';
const AT = '2030-01-01T10:00:00.000Z';

const scheduledData: Extract<CallbackEvent, { type: 'CallbackScheduled' }>['data'] = {
  deliveryId: DELIVERY_ID,
  merchantId: 'mer_1',
  orderId: 'esc_1',
  merchantOrderId: 'ORDER-1',
  sourceEventId: '00000000-0000-4000-8000-000000000001',
  sourceEventType: 'EscrowFunded',
  url: 'https://merchant.example/callbacks',
  body: '{"billRefNo":"ORDER-1","status":"PAID","deliveryId":"dlv_0123456789abcdef0123456789abcdef"}',
  scheduledAt: AT,
};

const scheduled: CallbackEvent = { type: 'CallbackScheduled', data: scheduledData };

/** When the next attempt is due: the attempt event says so while the delivery stays pending. */
const NEXT_AT = '2026-01-01T10:05:00.000Z';
const attempted = (attempt: number, statusCode?: number, error?: string, next?: 'next'): CallbackEvent => ({
  type: 'CallbackAttempted',
  data: { deliveryId: DELIVERY_ID, attempt, at: AT, latencyMs: 12, statusCode, error, delivered: isSuccess(statusCode), ...(next ? { nextAttemptAt: NEXT_AT } : {}) },
});
const delivered = (attempt: number): CallbackEvent => ({ type: 'CallbackDelivered', data: { deliveryId: DELIVERY_ID, attempt, deliveredAt: AT } });
const abandoned = (attempts: number, reason: string): CallbackEvent => ({
  type: 'CallbackAbandoned',
  data: { deliveryId: DELIVERY_ID, attempts, reason, abandonedAt: AT },
});
const redeliveryRequested: CallbackEvent = { type: 'CallbackRedeliveryRequested', data: { deliveryId: DELIVERY_ID, requestedAt: AT } };

const recordAttempt = (attempt: number, { statusCode, error, retriesLeft = 2 }: { statusCode?: number; error?: string; retriesLeft?: number }): DeliveryCommand => ({
  type: 'RecordAttempt',
  data: { attempt, at: AT, latencyMs: 12, statusCode, error, retriesLeft, nextAttemptAt: NEXT_AT },
});
const requestRedelivery: DeliveryCommand = { type: 'RequestRedelivery', data: { deliveryId: scheduledData.deliveryId, merchantId: 'mer_1', at: AT } };

const stateOf = (history: readonly CallbackEvent[]): DeliveryState => fold(deliveryDecider, history);
/** What the delivery looks like after the command's events are appended. */
const after = (history: readonly CallbackEvent[], command: DeliveryCommand) => stateOf([...history, ...deliveryDecider.decide(command, stateOf(history))]);

describe('delivery decider', () => {
  describe('scheduling', () => {
    it('opens a pending delivery with no attempts', () => {
      given(deliveryDecider, []).when({ type: 'ScheduleCallback', data: scheduledData }).then([scheduled]);
      // Due at once: the first attempt follows the scheduling.
      expect(stateOf([scheduled])).toEqual({ scheduled: scheduledData, status: 'PENDING', attempts: [], attemptCount: 0, attemptsInRound: 0, dueAt: scheduledData.scheduledAt });
    });

    it('schedules a delivery once, whoever notices the source event again', () => {
      given(deliveryDecider, [scheduled]).when({ type: 'ScheduleCallback', data: { ...scheduledData, scheduledAt: '2030-01-02T00:00:00.000Z' } }).thenNothing();
      given(deliveryDecider, [scheduled, attempted(1, 200), delivered(1)]).when({ type: 'ScheduleCallback', data: scheduledData }).thenNothing();
    });

    it('knows no attempt or redelivery of a delivery that was never scheduled', () => {
      given(deliveryDecider, []).when(recordAttempt(1, { statusCode: 200 })).thenThrows(DeliveryNotFound);
      given(deliveryDecider, []).when(requestRedelivery).thenThrows(DeliveryNotFound);
    });
  });

  describe('attempt numbering', () => {
    it('numbers the first attempt 1 and each next one after the last recorded', () => {
      given(deliveryDecider, [scheduled]).when(recordAttempt(1, { statusCode: 500 })).then([attempted(1, 500, undefined, 'next')]);
      given(deliveryDecider, [scheduled, attempted(1, 500)]).when(recordAttempt(2, { statusCode: 500, retriesLeft: 1 })).then([attempted(2, 500, undefined, 'next')]);
    });

    it('refuses an attempt number already used (a duplicate job) as stale', () => {
      given(deliveryDecider, [scheduled, attempted(1, 500)]).when(recordAttempt(1, { statusCode: 200 })).thenThrows(StaleAttempt);
      given(deliveryDecider, [scheduled, attempted(1, 500), attempted(2, 500)]).when(recordAttempt(1, { statusCode: 500 })).thenThrows(StaleAttempt);
    });

    it('refuses an attempt that skips ahead', () => {
      given(deliveryDecider, [scheduled]).when(recordAttempt(2, { statusCode: 200 })).thenThrows(StaleAttempt);
      given(deliveryDecider, [scheduled]).when(recordAttempt(0, { statusCode: 200 })).thenThrows(StaleAttempt);
    });

    it('keeps every attempt with its outcome and counts the attempts of the round', () => {
      const state = stateOf([scheduled, attempted(1, 503), attempted(2, undefined, 'timed out')]);
      expect(state.status).toBe('PENDING');
      expect(state.attemptsInRound).toBe(2);
      expect(state.attempts).toEqual([
        { attempt: 1, at: AT, latencyMs: 12, statusCode: 503, error: undefined, delivered: false },
        { attempt: 2, at: AT, latencyMs: 12, statusCode: undefined, error: 'timed out', delivered: false },
      ]);
    });

    it("decides on the count of attempts, so a queued attempt's state carried without their details decides the same", () => {
      const full = stateOf([scheduled, attempted(1, 500), attempted(2, 500)]);
      const carried: DeliveryState = { ...full, attempts: [] };
      expect(full.attemptCount).toBe(2);
      expect(deliveryDecider.decide(recordAttempt(3, { statusCode: 200 }), carried)).toEqual(deliveryDecider.decide(recordAttempt(3, { statusCode: 200 }), full));
      expect(() => deliveryDecider.decide(recordAttempt(2, { statusCode: 200 }), carried)).toThrow(StaleAttempt);
    });

    it('records a failure without a status code (timeout, refused connection) as an error', () => {
      given(deliveryDecider, [scheduled]).when(recordAttempt(1, { error: 'ECONNREFUSED' })).then([attempted(1, undefined, 'ECONNREFUSED', 'next')]);
    });
  });

  describe('delivered', () => {
    it.each([200, 201, 202, 204, 299])('a %i answer delivers the callback', (statusCode) => {
      given(deliveryDecider, [scheduled]).when(recordAttempt(1, { statusCode })).then([attempted(1, statusCode), delivered(1)]);
      expect(after([scheduled], recordAttempt(1, { statusCode })).status).toBe('DELIVERED');
    });

    it('delivers on a later attempt after failures', () => {
      const history = [scheduled, attempted(1, 500)];
      given(deliveryDecider, history).when(recordAttempt(2, { statusCode: 200, retriesLeft: 1 })).then([attempted(2, 200), delivered(2)]);
    });

    it.each([100, 199, 300, 302, 304, 400, 404, 429, 500, 503])('a %i answer is not a delivery', (statusCode) => {
      given(deliveryDecider, [scheduled]).when(recordAttempt(1, { statusCode })).then([attempted(1, statusCode, undefined, 'next')]);
    });

    it('takes no attempt once delivered', () => {
      given(deliveryDecider, [scheduled, attempted(1, 200), delivered(1)]).when(recordAttempt(2, { statusCode: 200 })).thenThrows(StaleAttempt);
    });
  });

  describe('abandoned', () => {
    it('gives up at once on 410 Gone, even with retries left', () => {
      given(deliveryDecider, [scheduled]).when(recordAttempt(1, { statusCode: 410, retriesLeft: 9 })).then([
        attempted(1, 410),
        abandoned(1, 'The receiver answered 410 Gone'),
      ]);
      expect(after([scheduled], recordAttempt(1, { statusCode: 410, retriesLeft: 9 })).status).toBe('ABANDONED');
    });

    it('gives up when the schedule has no retry left', () => {
      const history = [scheduled, attempted(1, 500), attempted(2, 500)];
      given(deliveryDecider, history).when(recordAttempt(3, { statusCode: 500, retriesLeft: 0 })).then([
        attempted(3, 500),
        abandoned(3, 'Every scheduled attempt failed'),
      ]);
      given(deliveryDecider, history).when(recordAttempt(3, { error: 'timed out', retriesLeft: 0 })).then([
        attempted(3, undefined, 'timed out'),
        abandoned(3, 'Every scheduled attempt failed'),
      ]);
    });

    it('still delivers on the last retry when it succeeds', () => {
      given(deliveryDecider, [scheduled, attempted(1, 500)]).when(recordAttempt(2, { statusCode: 200, retriesLeft: 0 })).then([attempted(2, 200), delivered(2)]);
    });

    it('takes no attempt once abandoned', () => {
      given(deliveryDecider, [scheduled, attempted(1, 410), abandoned(1, 'gone')]).when(recordAttempt(2, { statusCode: 200 })).thenThrows(StaleAttempt);
    });
  });

  describe('redelivery', () => {
    const deliveredHistory = [scheduled, attempted(1, 500), attempted(2, 200), delivered(2)];
    const abandonedHistory = [scheduled, attempted(1, 500), attempted(2, 500), attempted(3, 500), abandoned(3, 'Every scheduled attempt failed')];

    it('reopens a delivered delivery: pending again, attempts kept, a new round', () => {
      given(deliveryDecider, deliveredHistory).when(requestRedelivery).then([redeliveryRequested]);
      const state = after(deliveredHistory, requestRedelivery);
      expect(state.status).toBe('PENDING');
      expect(state.attempts).toHaveLength(2);
      expect(state.attemptsInRound).toBe(0);
      expect(state.scheduled).toEqual(scheduledData);
    });

    it("is, to another merchant, a delivery that does not exist", () => {
      given(deliveryDecider, deliveredHistory).when({ ...requestRedelivery, data: { ...requestRedelivery.data, merchantId: 'mer_2' } }).thenThrows(DeliveryNotFound);
    });

    it('reopens an abandoned delivery with a whole schedule again', () => {
      const state = after(abandonedHistory, requestRedelivery);
      expect(state.status).toBe('PENDING');
      expect(state.attemptsInRound).toBe(0);
    });

    it('numbers the next attempt after every earlier one, and treats old numbers as stale', () => {
      const history = [...deliveredHistory, redeliveryRequested];
      given(deliveryDecider, history).when(recordAttempt(3, { statusCode: 200 })).then([attempted(3, 200), delivered(3)]);
      given(deliveryDecider, history).when(recordAttempt(2, { statusCode: 200 })).thenThrows(StaleAttempt);
      expect(after(history, recordAttempt(3, { statusCode: 200 })).status).toBe('DELIVERED');
    });

    it('counts the new round from zero, so the schedule starts over', () => {
      const history = [...abandonedHistory, redeliveryRequested, attempted(4, 500)];
      const state = stateOf(history);
      expect(state.attemptsInRound).toBe(1);
      expect(state.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
      given(deliveryDecider, history).when(recordAttempt(5, { statusCode: 500, retriesLeft: 1 })).then([attempted(5, 500, undefined, 'next')]);
    });
  });

  it('tells success and gone apart', () => {
    expect(isSuccess(undefined)).toBe(false);
    expect(isSuccess(200)).toBe(true);
    expect(isSuccess(300)).toBe(false);
    expect(isGone(410)).toBe(true);
    expect(isGone(404)).toBe(false);
    expect(isGone(undefined)).toBe(false);
  });
});

describe('redelivery rounds', () => {
  it('counts each redelivery request as a round of its own', () => {
    const history = [scheduled, attempted(1, 500), redeliveryRequested, attempted(2, 500), redeliveryRequested];
    expect(stateOf(history).round).toBe(2);
    expect(stateOf([scheduled]).round ?? 0).toBe(0);
  });
});
