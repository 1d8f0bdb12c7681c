import type { CommandBus } from '@nestjs/cqrs';
import type { SqlClient } from '@app/database';
import type { PayoutSchedule } from '@app/domain';
import type { Scheduler } from '@app/scheduling';
import { FixedClock } from '../../../infrastructure/src/testing/fixed-clock';
import { RequestScheduledPayoutCommand } from '../flow/request-scheduled-payout/request-scheduled-payout.command';
import { Expiries } from './expiries';
import type { PaymentJob } from './payment-job';
import { PayoutPeriods } from './payout-periods';

const HOUR_MS = 60 * 60 * 1000;
const FRIDAY_10_ADDIS = Date.parse('2030-01-04T10:00:00+03:00');

/**
 * The scheduled work reads the time through the Clock port, so a clock that is moved, not the wall
 * clock, decides what is due: a weekly Friday payout and an order's expiry, each on either side of its instant.
 */
describe('payment work on a moved clock', () => {
  const queued: PaymentJob[] = [];
  const scheduler = { schedule: async (job: PaymentJob) => void queued.push(job) } as unknown as Scheduler<PaymentJob>;
  const commands = { execute: jest.fn() };
  beforeEach(() => {
    queued.length = 0;
    commands.execute.mockReset();
  });

  describe('a weekly schedule, Fridays at 10:00 in Addis Ababa, set on Wednesday', () => {
    const schedule: PayoutSchedule = { kind: 'weekly', hour: 10, weekday: 'friday' };
    // The read model lists the merchant as one with money to pay out (schedulesToPay).
    const db = { query: async () => [{ merchant_id: 'm-1', schedule, schedule_set_at: new Date('2030-01-02T09:00:00+03:00'), last_period: null }] } as unknown as SqlClient;
    const periods = (clock: FixedClock) => new PayoutPeriods(db, scheduler, commands as unknown as CommandBus, clock);

    it('queues nothing on Wednesday, Friday’s period once it falls within the look-ahead, and pays it once the clock reaches it', async () => {
      const clock = new FixedClock('2030-01-02T15:00:00+03:00');
      expect(await periods(clock).due(clock.now().getTime() + HOUR_MS)).toEqual([]);

      clock.advance(FRIDAY_10_ADDIS - 30 * 60 * 1000 - clock.now().getTime());
      const [friday] = await periods(clock).due(clock.now().getTime() + HOUR_MS);
      expect(friday).toMatchObject({ kind: 'scheduled-payout', id: 'm-1', step: 's0', runAt: FRIDAY_10_ADDIS });

      // A timer that fires before the clock reaches the period waits for it; at the period, the payout is asked for.
      await periods(clock).run(friday);
      expect(commands.execute).not.toHaveBeenCalled();
      expect(queued).toEqual([{ ...friday, step: 's1' }]);
      clock.advance(30 * 60 * 1000);
      await periods(clock).run(friday);
      expect(commands.execute).toHaveBeenCalledWith(new RequestScheduledPayoutCommand('m-1', friday.reference!));
    });

    it('queues a period that fell due while nothing ran (the clock moved past it)', async () => {
      const clock = new FixedClock(FRIDAY_10_ADDIS + 5 * HOUR_MS);
      expect(await periods(clock).due(clock.now().getTime() + HOUR_MS)).toEqual([expect.objectContaining({ kind: 'scheduled-payout', runAt: FRIDAY_10_ADDIS })]);
    });
  });

  describe('an unpaid order expiring at noon', () => {
    const expiresAt = '2030-01-04T12:00:00.000Z';
    const job: PaymentJob = { kind: 'expire', id: 'ord-1', step: 'e0', runAt: Date.parse(expiresAt) };

    it('is asked again at its instant when the clock says it has not come, and left alone once it has', async () => {
      commands.execute.mockResolvedValue({ status: 'PENDING', expiresAt });
      const clock = new FixedClock('2030-01-04T11:59:59.000Z');
      const expiries = new Expiries({} as SqlClient, scheduler, commands as unknown as CommandBus, clock);
      await expiries.run(job);
      expect(queued).toEqual([{ ...job, step: 'e1', runAt: Date.parse(expiresAt) }]);

      queued.length = 0;
      clock.advance(1_000);
      commands.execute.mockResolvedValue({ status: 'EXPIRED', expiresAt });
      await expiries.run(job);
      expect(queued).toEqual([]);
    });
  });
});
