import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { streamKey } from '@app/domain';
import { autoReleasesDue } from '@app/read-models';
import { ReleaseDueCommand } from '../flow/release-due/release-due.command';
import { type PaymentJob, referenced } from './payment-job';
import type { PaymentWork } from './payment-work';

const MOVES_RELEASE = new Set(['OrderCreated', 'EscrowCreated', 'AutoReleaseRescheduled']);

/** What an escrow still holds is released at its automatic release instant, as it was at creation or as moved since. */
@Injectable()
export class AutoReleases implements PaymentWork {
  readonly kinds = ['auto-release'] as const;
  readonly retriedOnError = true;

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  jobsFor(event: RecordedEvent, horizon: number): PaymentJob[] {
    if (!MOVES_RELEASE.has(event.type)) return [];
    // An escrow on a test clock is released by the clock's advances (its later events name no clock: the escrow's creation does).
    if ((event.data as { testClockId?: string }).testClockId || event.metadata.testClockId) return [];
    const { autoReleaseAt } = event.data as { autoReleaseAt?: string | null };
    const runAt = autoReleaseAt === undefined || autoReleaseAt === null ? Infinity : Date.parse(autoReleaseAt);
    return runAt <= horizon ? [autoRelease(streamKey(event.streamId), runAt)] : [];
  }

  async due(horizon: number): Promise<PaymentJob[]> {
    return (await autoReleasesDue(this.db, new Date(horizon))).map((due) => autoRelease(due.payableId, due.at.getTime()));
  }

  async run(job: PaymentJob): Promise<void> {
    if (!referenced(job)) return;
    await this.commands.execute(new ReleaseDueCommand(job.id));
  }
}

/** The instant is in the job's id: a moved release is another job, and the one before it releases nothing. */
function autoRelease(escrowId: string, runAt: number): PaymentJob {
  return { kind: 'auto-release', id: escrowId, reference: String(runAt), step: 'a0', runAt };
}
