import { Inject, Injectable } from '@nestjs/common';
import { type DomainEvent, EscrowNotFound, OrderNotFound, PayableNotFound, type PayableSummary, type PaymentCommand, visitPayable } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';

export interface PaymentOutcome {
  summary: PayableSummary;
  events: DomainEvent[];
  /** When `events` were recorded (the payable's last change); absent when the command changed nothing. */
  recordedAt?: Date;
}

/**
 * The payment flow's one way to an order or an escrow, whichever the id names: the same commands,
 * decided by the payable's own decider (whose payment part is the same lifecycle for both).
 */
@Injectable()
export class PaymentFlow {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  async load(id: string): Promise<PayableSummary> {
    const summary = await visitPayable(id, async (streamId, decider, summarise) => summarise((await this.runner.read(streamId, decider)).state));
    if (!summary) throw new PayableNotFound(id);
    return summary;
  }

  async run(id: string, command: PaymentCommand, metadata: EventMetadata): Promise<PaymentOutcome> {
    try {
      const outcome = await visitPayable(id, async (streamId, decider, summarise) => {
        const { state, events, at } = await this.runner.run(streamId, decider, command, metadata);
        return { summary: summarise(state), events: events as DomainEvent[], recordedAt: events.length > 0 ? at : undefined };
      });
      if (!outcome?.summary) throw new PayableNotFound(id);
      return { summary: outcome.summary, events: outcome.events, recordedAt: outcome.recordedAt };
    } catch (error) {
      // A payable that was never created is refused by its decider, which knows no id to name.
      if (error instanceof OrderNotFound || error instanceof EscrowNotFound) throw new PayableNotFound(id);
      throw error;
    }
  }
}
