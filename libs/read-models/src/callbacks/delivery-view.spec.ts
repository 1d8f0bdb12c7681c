import fc from 'fast-check';
import { type CallbackEvent, type DeliveryCommand, deliveryDecider } from '@app/callbacks';
import { DomainError, fold } from '@app/domain';
import { deliveryViewFold } from './delivery-view';

const AT = '2030-01-01T10:00:00.000Z';
const later = (minutes: number) => new Date(Date.parse(AT) + minutes * 60_000).toISOString();

const schedule: DeliveryCommand = {
  type: 'ScheduleCallback',
  data: {
    deliveryId: 'dlv_1',
    merchantId: 'm-1',
    orderId: 'esc_1',
    merchantOrderId: 'shop-1',
    sourceEventId: 'evt-1',
    sourceEventType: 'AllocationReleased',
    sourcePosition: { commit: '12', prepare: '3' },
    url: 'https://merchant.example/callbacks',
    body: '{"status":"RELEASED"}',
    scheduledAt: AT,
  },
};

type Step = { kind: 'attempt'; statusCode?: number; retriesLeft: number; error: boolean } | { kind: 'redeliver' };

const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('attempt' as const), statusCode: fc.option(fc.constantFrom(200, 204, 410, 500, 503), { nil: undefined }), retriesLeft: fc.nat({ max: 3 }), error: fc.boolean() }), weight: 4 },
  { arbitrary: fc.constant({ kind: 'redeliver' as const }), weight: 1 },
);

/**
 * The delivery log's view is folded from a delivery's events, not from the delivery decider's state:
 * whatever the decider decides, the view tells the same status, attempts and retry standing.
 */
describe('a delivery as its view folds it', () => {
  it('says what the decider knows: status, attempts, where the retry schedule stands and when the next attempt is due', () => {
    fc.assert(
      fc.property(fc.array(aStep, { maxLength: 12 }), (steps) => {
        const history: CallbackEvent[] = [...deliveryDecider.decide(schedule, deliveryDecider.initialState())];
        steps.forEach((step, i) => {
          const state = fold(deliveryDecider, history);
          const command: DeliveryCommand =
            step.kind === 'redeliver'
              ? { type: 'RequestRedelivery', data: { deliveryId: 'dlv_1', merchantId: 'm-1', at: later(i) } }
              : {
                  type: 'RecordAttempt',
                  data: {
                    attempt: state.attemptCount + 1,
                    at: later(i),
                    latencyMs: 12,
                    ...(step.statusCode !== undefined ? { statusCode: step.statusCode, response: 'ok' } : {}),
                    ...(step.error ? { error: 'ECONNRESET' } : {}),
                    retriesLeft: step.retriesLeft,
                    nextAttemptAt: later(i + 1),
                  },
                };
          try {
            history.push(...deliveryDecider.decide(command, state));
          } catch (refusal) {
            if (!(refusal instanceof DomainError)) throw refusal;
          }
        });
        const state = fold(deliveryDecider, history);
        const view = fold(deliveryViewFold, history)!;
        expect(view).toEqual({
          deliveryId: 'dlv_1',
          merchantId: 'm-1',
          orderId: 'esc_1',
          merchantOrderId: 'shop-1',
          event: 'AllocationReleased',
          sourcePosition: { commit: '12', prepare: '3' },
          status: state.status,
          url: 'https://merchant.example/callbacks',
          body: '{"status":"RELEASED"}',
          attempts: state.attempts,
          attemptsInRound: state.attemptsInRound,
          round: state.round ?? 0,
          ...(state.status === 'PENDING' && state.dueAt ? { nextAttemptAt: state.dueAt } : {}),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('has no row before the delivery is scheduled', () => {
    expect(fold(deliveryViewFold, [{ type: 'CallbackRedeliveryRequested', data: { deliveryId: 'dlv_1', requestedAt: AT } }])).toBeUndefined();
  });
});
