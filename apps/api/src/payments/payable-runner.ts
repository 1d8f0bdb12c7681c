import { Inject, Injectable } from '@nestjs/common';
import { type DomainEvent, type EscrowCommand, OrderNotFound, type OrderCommand } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '../infrastructure/command-runner';
import { type AnyPayableKind, type PayableKind, payableKind, type PayableSummary } from './payable';

type AnyCommand = OrderCommand | EscrowCommand;

export interface PayableOutcome {
  summary: PayableSummary;
  events: DomainEvent[];
}

/** Runs a payment-flow command on an order or an escrow, whichever the id names. */
@Injectable()
export class PayableRunner {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  async load(id: string): Promise<PayableSummary> {
    const kind = payableKind(id);
    const generic = kind as unknown as PayableKind<AnyCommand, DomainEvent, unknown> | undefined;
    const summary = generic && generic.summary(id, await this.runner.load(generic.streamId(id), generic.decider));
    if (!summary) throw new OrderNotFound(id);
    return summary;
  }

  async run(
    id: string,
    choose: (kind: AnyPayableKind, summary: PayableSummary) => AnyCommand | undefined,
    metadata: EventMetadata,
  ): Promise<PayableOutcome> {
    const kind = payableKind(id);
    if (!kind) throw new OrderNotFound(id);
    const generic = kind as unknown as PayableKind<AnyCommand, DomainEvent, unknown>;
    const outcome = await this.runner.run(
      generic.streamId(id),
      generic.decider,
      (state) => {
        const summary = generic.summary(id, state);
        if (!summary) throw new OrderNotFound(id);
        return choose(kind, summary);
      },
      metadata,
    );
    return { summary: generic.summary(id, outcome.state)!, events: outcome.events };
  }
}
