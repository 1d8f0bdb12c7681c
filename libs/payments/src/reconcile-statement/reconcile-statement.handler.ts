import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash, randomBytes } from 'node:crypto';
import {
  ACCOUNTS,
  AuditLogReader,
  CLEARING_EVENT_TYPES,
  discrepanciesOf,
  parseStatement,
  type PostedEvent,
  type ProviderMovement,
  providerMovementsOf,
  reconcile,
  StatementUnreadable,
  statementDayOf,
  STATEMENT_MODES,
} from '@app/audit';
import { addisDay, reconciliationDecider, streams } from '@app/domain';
import { parsePosition } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { LedgerReader } from '@app/read-models';
import { ReconcileStatementCommand, type ReconciliationRun } from './reconcile-statement.command';

/** A day's settlement file of a busy account is a few megabytes; past this it is not a statement. */
export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;

/**
 * Our movements are read a day either side of the statement's day by the time we recorded them, and
 * placed by the provider's time they carry: a movement recorded late (a lost notification found by
 * the reconciler hours after) still counts on the day it moved at the provider.
 */
const READ_MARGIN_MS = 86_400_000;
const EVENT_PAGE = 500;

function textOf(file: Buffer): string {
  if (file.length > MAX_STATEMENT_BYTES) throw new StatementUnreadable(`The file is ${file.length} bytes, more than a statement's ${MAX_STATEMENT_BYTES}`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    throw new StatementUnreadable('The file is not UTF-8 text: export the statement as CSV');
  }
  // PostgreSQL cannot store a NUL, and a discrepancy recorded in the run quotes the file.
  if (text.includes('\u0000')) throw new StatementUnreadable('The file holds a NUL character: it is not a CSV statement');
  return text;
}

@CommandHandler(ReconcileStatementCommand)
export class ReconcileStatementHandler implements ICommandHandler<ReconcileStatementCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(LedgerReader) private readonly ledger: LedgerReader,
    @Inject(AuditLogReader) private readonly log: AuditLogReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: ReconcileStatementCommand): Promise<ReconciliationRun> {
    const lines = parseStatement(command.provider, textOf(command.file));
    const statementDay = statementDayOf(lines, command.day);
    const day = addisDay(statementDay);
    const read = await this.movements(ACCOUNTS.providerClearing(STATEMENT_MODES[command.provider]), new Date(day.from.getTime() - READ_MARGIN_MS), new Date(day.to.getTime() + READ_MARGIN_MS), command.onProgress);
    const onDay = (m: ProviderMovement) => Date.parse(m.at) >= day.from.getTime() && Date.parse(m.at) < day.to.getTime();
    const report = reconcile({ lines, movements: read.filter(onDay), neighbours: read.filter((m) => !onDay(m)) });
    const run = {
      runId: `rec_${randomBytes(12).toString('hex')}`,
      provider: command.provider,
      statementDay,
      fileSha256: createHash('sha256').update(command.file).digest('hex'),
      reconciledAt: this.clock.now().toISOString(),
    };
    await this.runner.run(
      streams.reconciliation(run.runId),
      reconciliationDecider,
      {
        type: 'RecordReconciliation',
        data: { ...run, ranBy: command.ranBy, counts: report.counts, fees: report.fees, discrepancies: discrepanciesOf(report), at: run.reconciledAt },
      },
      command.metadata,
    );
    return { ...run, report };
  }

  /**
   * The postings of the statement's mode's clearing account (live books for the live provider, test books for
   * the sandbox) recorded in [from, to), with the references their events carry.
   */
  private async movements(clearing: string, from: Date, to: Date, onProgress?: (done: number, total: number) => void): Promise<ProviderMovement[]> {
    const postings = await this.ledger.postings(clearing, from, to);
    const wanted = new Set(postings.map((p) => p.eventId));
    const events: PostedEvent[] = [];
    onProgress?.(0, postings.length);
    let after: string | null = null;
    do {
      const page = await this.log.page({ types: [...CLEARING_EVENT_TYPES], from, to, limit: EVENT_PAGE, ...(after ? { after: parsePosition(after) } : {}) });
      events.push(...page.events.filter((event) => wanted.has(event.id)));
      onProgress?.(events.length, postings.length);
      after = page.next;
    } while (after);
    return providerMovementsOf(postings, events);
  }
}
