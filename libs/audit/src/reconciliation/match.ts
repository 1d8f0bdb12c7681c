import { type Discrepancy, discrepancyCount, type ReconciliationCounts, type Santim } from '@app/domain';
import type { MovementKind, ProviderMovement, StatementLine } from './statement';

export interface ReconciliationInput {
  lines: readonly StatementLine[];
  /** Our movements of the statement's day. */
  movements: readonly ProviderMovement[];
  /**
   * Ours from just before and after the day. The provider's clock and ours can put one movement on
   * either side of midnight, so a line may match one of these; one that no line names belongs to the
   * other day's statement and is not reported here.
   */
  neighbours?: readonly ProviderMovement[];
}

export interface MatchedPair {
  line: StatementLine;
  movement: ProviderMovement;
}

/** Every line and every movement of the day is in exactly one of the five lists. */
export interface ReconciliationReport {
  /** Both sides agree: the same gross amount moved, or (no movement) the provider says nothing moved. */
  matched: { line: StatementLine; movement?: ProviderMovement }[];
  /** The provider moved money we did not book. */
  missingOnOurSide: StatementLine[];
  /** We booked money the provider does not show. */
  missingOnTheirSide: ProviderMovement[];
  amountMismatches: MatchedPair[];
  /** We booked money the provider says did not move (failed, reversed) or has not yet. */
  statusMismatches: MatchedPair[];
  counts: ReconciliationCounts;
  /** What the provider charged on the lines that moved money: reported, never netted from the amounts compared. */
  fees: Santim;
}

const key = (kind: MovementKind, reference: string) => `${kind}\u0000${reference}`;

function indexBy(movements: readonly ProviderMovement[], reference: (m: ProviderMovement) => string | undefined): Map<string, ProviderMovement[]> {
  const index = new Map<string, ProviderMovement[]>();
  for (const movement of movements) {
    const value = reference(movement);
    if (value === undefined) continue;
    const k = key(movement.kind, value);
    const found = index.get(k);
    if (found) found.push(movement);
    else index.set(k, [movement]);
  }
  return index;
}

/**
 * Matches a provider's statement to our movements of its mode's clearing account
 * (`provider:clearing`, `test:provider:clearing`: docs/concepts/ledger.md). A line matches a movement
 * of its kind by the provider's reference, which the provider reported when it confirmed the movement.
 * Only then, and only for a line that says money moved, by our own reference when both sides carry it:
 * an attempt the provider failed and that was asked again under a new reference (a Chapa refund)
 * names the same refund of ours, and must not take the movement of the attempt that succeeded. Each
 * movement matches one line at most: a second line for it, or a second booking of one line, is a
 * discrepancy. Amounts are compared gross; fees are summed apart.
 */
export function reconcile({ lines, movements, neighbours = [] }: ReconciliationInput): ReconciliationReport {
  const pool = [...movements, ...neighbours];
  const byProviderReference = indexBy(pool, (m) => m.providerReference);
  const byReference = indexBy(pool, (m) => m.reference);
  const used = new Set<ProviderMovement>();
  const pairs = new Map<StatementLine, ProviderMovement>();
  const claim = (line: StatementLine, candidates: ProviderMovement[] | undefined) => {
    const movement = candidates?.find((m) => !used.has(m));
    if (!movement) return;
    used.add(movement);
    pairs.set(line, movement);
  };
  for (const line of lines) claim(line, byProviderReference.get(key(line.kind, line.providerReference)));
  for (const line of lines) {
    if (!pairs.has(line) && line.status === 'settled' && line.reference !== undefined) claim(line, byReference.get(key(line.kind, line.reference)));
  }
  const matched: ReconciliationReport['matched'] = [];
  const missingOnOurSide: StatementLine[] = [];
  const amountMismatches: MatchedPair[] = [];
  const statusMismatches: MatchedPair[] = [];
  let fees = 0;
  for (const line of lines) {
    if (line.status === 'settled') fees += line.fee;
    const movement = pairs.get(line);
    if (!movement) {
      if (line.status === 'settled') missingOnOurSide.push(line);
      else matched.push({ line });
    } else if (line.status !== 'settled') statusMismatches.push({ line, movement });
    else if (line.amount !== movement.amount) amountMismatches.push({ line, movement });
    else matched.push({ line, movement });
  }
  const missingOnTheirSide = movements.filter((m) => !used.has(m));
  return {
    matched,
    missingOnOurSide,
    missingOnTheirSide,
    amountMismatches,
    statusMismatches,
    counts: {
      lines: lines.length,
      movements: movements.length + neighbours.filter((m) => used.has(m)).length,
      matched: matched.length,
      missingOnOurSide: missingOnOurSide.length,
      missingOnTheirSide: missingOnTheirSide.length,
      amountMismatch: amountMismatches.length,
      statusMismatch: statusMismatches.length,
    },
    fees: fees as Santim,
  };
}

/** Nothing to look into: every line and every movement matched. */
export function isClean(counts: ReconciliationCounts): boolean {
  return discrepancyCount(counts) === 0;
}

function fromLine(line: StatementLine) {
  return {
    movementKind: line.kind,
    providerReference: line.providerReference,
    ...(line.reference === undefined ? {} : { reference: line.reference }),
    line: line.line,
    statementAmount: line.amount,
    statementStatus: line.providerStatus,
  };
}

function fromMovement(movement: ProviderMovement) {
  return { ourAmount: movement.amount, eventId: movement.eventId, streamId: movement.streamId };
}

/** The report's discrepancies, ordered by kind, then as found. */
export function discrepanciesOf(report: ReconciliationReport): Discrepancy[] {
  return [
    ...report.missingOnOurSide.map((line): Discrepancy => ({ kind: 'missing-on-our-side', ...fromLine(line) })),
    ...report.missingOnTheirSide.map(
      (m): Discrepancy => ({
        kind: 'missing-on-their-side',
        movementKind: m.kind,
        providerReference: m.providerReference,
        ...(m.reference === undefined ? {} : { reference: m.reference }),
        ...fromMovement(m),
      }),
    ),
    ...report.amountMismatches.map(({ line, movement }): Discrepancy => ({ kind: 'amount-mismatch', ...fromLine(line), ...fromMovement(movement) })),
    ...report.statusMismatches.map(({ line, movement }): Discrepancy => ({ kind: 'status-mismatch', ...fromLine(line), ...fromMovement(movement) })),
  ];
}
