import fc from 'fast-check';
import { ACCOUNTS, PAYOUT_ENTRY_TYPES } from '@app/audit';
import { createPgliteClient, migrate, type SqlClient } from '@app/database';
import { creditAvailableOn, type CreditRules, creditKeptAt, MAX_PAYOUT_DELAY_DAYS, MAX_RESERVE_DAYS } from '@app/domain';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { creditAvailableOn as creditAvailableOnSql, creditKeptAt as creditKeptAtSql } from './credit-availability.sql';

/** One event of a merchant's history: a posting to its payable, or a change of its holding period and reserve. */
type Happening = { kind: 'posting'; eventType: string; at: number; amount: number } | ({ kind: 'delay' } & CreditRules);

const DAY_MS = 86_400_000;
/** Around a day boundary in Addis Ababa (UTC+3) as often as not: 21:00 UTC is midnight there. */
const anInstant = fc.oneof(
  fc.integer({ min: Date.UTC(2030, 0, 1), max: Date.UTC(2030, 2, 1) }),
  fc.tuple(fc.integer({ min: 0, max: 59 }), fc.integer({ min: -120_000, max: 120_000 })).map(([day, offset]) => Date.UTC(2030, 0, 1, 21) + day * DAY_MS + offset),
);
const aHappening: fc.Arbitrary<Happening> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('posting' as const),
      eventType: fc.constantFrom('AllocationReleased', 'OrderPaid', 'TransferCreated', ...PAYOUT_ENTRY_TYPES),
      at: anInstant,
      amount: fc.integer({ min: 1, max: 100_000_000_000 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('delay' as const),
      delayDays: fc.integer({ min: 0, max: MAX_PAYOUT_DELAY_DAYS }),
      reservePercent: fc.integer({ min: 0, max: 100 }),
      reserveDays: fc.integer({ min: 0, max: MAX_RESERVE_DAYS }),
    }),
    weight: 1,
  },
);

/**
 * The holding period and the reserve are one rule written twice: in TypeScript (creditAvailableOn,
 * creditKeptAt, libs/domain/src/payout/payout-availability.ts), which the statement and the decisions'
 * model use, and in SQL (credit-availability.sql.ts), which the readers join. On random histories of
 * postings and changes of the rules, the two give every posting the same day and keep the same santim
 * of it at any instant.
 */
describe('the holding period and the reserve in SQL are those in TypeScript', () => {
  let db: SqlClient;

  beforeAll(async () => {
    db = await createPgliteClient(undefined);
    await migrate(db, 'public', 'read-models', READ_MODEL_MIGRATIONS);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('gives every posting of a random history the day the TypeScript rule gives it, and keeps what it keeps at any instant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(aHappening, { minLength: 1, maxLength: 20 }), anInstant, async (history, asked) => {
        await db.query('TRUNCATE ledger_entries, ledger_postings, payout_delays');
        const expected = new Map<string, string>();
        const expectedKept = new Map<string, { held: number; reserved: number }>();
        let rules: CreditRules = { delayDays: 0, reservePercent: 0, reserveDays: 0 };
        for (const [position, happening] of history.entries()) {
          if (happening.kind === 'delay') {
            await db.query('INSERT INTO payout_delays (merchant_id, commit_position, prepare_position, delay_days, reserve_percent, reserve_days) VALUES ($1, $2, 0, $3, $4, $5)', [
              'm',
              position,
              happening.delayDays,
              happening.reservePercent,
              happening.reserveDays,
            ]);
            rules = happening;
            continue;
          }
          const entryId = `e${position}`;
          const at = new Date(happening.at);
          await db.query(`INSERT INTO ledger_entries VALUES ($1, $1, 's', $2, $3, 0, $4, 'd')`, [entryId, happening.eventType, position, at]);
          await db.query(`INSERT INTO ledger_postings VALUES ($1, 0, $2, 0, $5, $3, 0, $4)`, [entryId, ACCOUNTS.merchantPayable('m'), position, at, happening.amount]);
          // A payout's own entries are no earnings: never held nor reserved.
          const own = (PAYOUT_ENTRY_TYPES as readonly string[]).includes(happening.eventType) ? { delayDays: 0, reservePercent: 0, reserveDays: 0 } : rules;
          expected.set(entryId, creditAvailableOn(at, own.delayDays));
          expectedKept.set(entryId, creditKeptAt(happening.amount, at, asked, own));
        }
        const rows = await db.query<{ entry_id: string; available_on: string; held: string; reserved: string }>(
          `SELECT p.entry_id, to_char(p_on.available_on, 'YYYY-MM-DD') AS available_on, p_kept.held::text AS held, p_kept.reserved::text AS reserved
           FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id ${creditAvailableOnSql('p', 'e', `'m'`)} ${creditKeptAtSql('p', '$1')}`,
          [new Date(asked)],
        );
        expect(new Map(rows.map((row) => [row.entry_id, row.available_on]))).toEqual(expected);
        expect(new Map(rows.map((row) => [row.entry_id, { held: Number(row.held), reserved: Number(row.reserved) }]))).toEqual(expectedKept);
      }),
      { numRuns: 60 },
    );
  });
});
