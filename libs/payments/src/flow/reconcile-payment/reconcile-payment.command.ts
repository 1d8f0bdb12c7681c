import { Command } from '@nestjs/cqrs';

/** Asks the provider what became of a payment attempt whose outcome has not arrived, and applies the answer. */
export class ReconcilePaymentCommand extends Command<void> {
  constructor(
    readonly id: string,
    readonly attemptId: string,
  ) {
    super();
  }
}
