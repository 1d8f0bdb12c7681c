/** What the code needs to know of a kind of stream, beyond its name. */
interface StreamKindEntry {
  /** The name's prefix: a stream is `{prefix}-{key}`. */
  readonly prefix: string;
  /** An order or an escrow: paid through the shared payment sub-decider (payable.ts), followed by the payables, provider-operations and ledger views. */
  readonly payable?: true;
  /** The prefix of the ids we make for it (ids.ts), when its key is one of ours and tells the kind apart from the other payables'. */
  readonly idPrefix?: string;
  /** Its events move money: the ledger posts them (docs/concepts/ledger.md). */
  readonly holdsMoney?: true;
  /** Callbacks are planned from its events (libs/callbacks/src/callback-payloads.ts). */
  readonly plansCallbacks?: true;
}

/**
 * Every kind of stream (one stream per aggregate instance), and the only place that tells a
 * stream's kind from its name: a new kind is one entry here plus its decider.
 */
const KINDS = {
  escrow: { prefix: 'escrow', payable: true, idPrefix: 'esc_', holdsMoney: true, plansCallbacks: true },
  order: { prefix: 'order', payable: true, idPrefix: 'ord_', holdsMoney: true, plansCallbacks: true },
  merchant: { prefix: 'merchant' },
  /** A platform's seller (libs/domain/src/account): in the ledger a merchant like any other; its changes are planned as ACCOUNT_UPDATED callbacks to its platform. */
  account: { prefix: 'account', plansCallbacks: true },
  auditor: { prefix: 'auditor' },
  /** One of the operator's staff (`stf_…`, staff/staff.decider.ts): their key to the admin API, and its revocation. */
  staff: { prefix: 'staff' },
  callback: { prefix: 'callback' },
  /**
   * A merchant's payout account as releases before each payout, its settings and its destination had
   * streams of their own wrote it: all of them. Carried over to those streams once (payout-account-carry-over.ts),
   * its mark last; until then still read (its payouts in flight get their outcomes here), never appended a payout.
   */
  payouts: { prefix: 'payouts', holdsMoney: true, plansCallbacks: true },
  /** One payout: its request and the provider's outcomes. */
  payout: { prefix: 'payout', holdsMoney: true, plansCallbacks: true },
  /** A merchant's payout destination, as versions, and the version a payout last failed to. */
  payoutDestination: { prefix: 'payout-destination' },
  /** A merchant's payout books: one PayoutBooked per payout, read by its last event only (the merchant's serialization point). */
  payoutBooks: { prefix: 'payout-books' },
  /** A merchant's payout settings, as versions; each change is planned as a PAYOUT_SETTINGS_UPDATED callback. */
  payoutSettings: { prefix: 'payout-settings', plansCallbacks: true },
  /** One run of a provider statement's reconciliation. */
  reconciliation: { prefix: 'reconciliation' },
  /** A merchant's webhook endpoint (`we_…`): where its callbacks also go, and which types; its test events are planned as callbacks. */
  webhookEndpoint: { prefix: 'webhook-endpoint', plansCallbacks: true },
  /** One transfer between a platform and another party, with its reversals (transfer/transfer.decider.ts). */
  transfer: { prefix: 'transfer', holdsMoney: true, plansCallbacks: true },
  /**
   * A platform's commission rule (keyed by the platform's merchant id: its default) or its override for one
   * of its sellers (keyed by the accountId), as versions (commission/commission.decider.ts).
   */
  commission: { prefix: 'commission' },
  /** A registered merchant's link to one platform (authority/platform-link.decider.ts): the platform may then debit and credit it. */
  platformLink: { prefix: 'platform-link' },
  /** The deployment's one decision of the mode of what was written before tenants had one (mode/legacy-mode.decider.ts). */
  deploymentModes: { prefix: 'deployment-modes' },
  /** A merchant's test clock (`clock_…`, test-clock/test-clock.decider.ts): the time of the test objects attached to it. */
  testClock: { prefix: 'test-clock' },
} as const satisfies Record<string, StreamKindEntry>;

export type StreamKind = keyof typeof KINDS;

/** The kinds whose entry says they are orders or escrows. */
export type PayableKind = { [K in StreamKind]: (typeof KINDS)[K] extends { payable: true } ? K : never }[StreamKind];

const ENTRIES = Object.entries(KINDS) as [StreamKind, StreamKindEntry][];

/** The kinds in the order they are listed, e.g. for an error that says which names are accepted. */
export const STREAM_KINDS: readonly StreamKind[] = ENTRIES.map(([kind]) => kind);

/** Stream names by kind: `streams.escrow(id)` is `escrow-{id}`. */
export const streams = Object.fromEntries(ENTRIES.map(([kind, entry]) => [kind, (key: string) => `${entry.prefix}-${key}`])) as Record<StreamKind, (key: string) => string>;

const patterns = ENTRIES.map(([, entry]) => `${entry.prefix}-…`);

/** `escrow-…, order-… or reconciliation-…`: the names a stream may have, as a person reads them. */
export const STREAM_NAMES = `${patterns.slice(0, -1).join(', ')} or ${patterns.at(-1)}`;

/**
 * Each kind's name start, the longest first, so the first that begins a name is its kind's. Built once:
 * the projector and the rebuild ask several times for each event's kind.
 */
const BY_LONGEST_PREFIX = ENTRIES.map(([kind, entry]) => ({ kind, start: `${entry.prefix}-` })).sort((a, b) => b.start.length - a.start.length);

/**
 * A stream's kind and key, or undefined for a name of no kind of ours. The longest prefix wins, so
 * a name is never read as a kind whose prefix merely begins it (`payout-settings-x` is not `payout…`).
 */
export function parseStreamId(streamId: string): { kind: StreamKind; key: string } | undefined {
  const found = startOf(streamId);
  return found && { kind: found.kind, key: streamId.slice(found.start.length) };
}

type KindStart = (typeof BY_LONGEST_PREFIX)[number];

/** BY_LONGEST_PREFIX by the first letter of the start: a name is tried against the few kinds it may be, not every one. */
const BY_FIRST_LETTER = new Map<string, KindStart[]>();
for (const entry of BY_LONGEST_PREFIX) BY_FIRST_LETTER.set(entry.start[0], [...(BY_FIRST_LETTER.get(entry.start[0]) ?? []), entry]);
const NO_KINDS: readonly KindStart[] = [];

/** The kind's entry whose start begins the name. Asked several times for every event a projector or a rebuild applies: it allocates nothing. */
function startOf(streamId: string): KindStart | undefined {
  for (const entry of BY_FIRST_LETTER.get(streamId.charAt(0)) ?? NO_KINDS) if (streamId.startsWith(entry.start)) return entry;
  return undefined;
}

export const streamKind = (streamId: string): StreamKind | undefined => startOf(streamId)?.kind;

/** A stream's id without its kind: what a view keys the stream's rows by. Only for a stream of one of our kinds. */
export function streamKey(streamId: string): string {
  const parsed = parseStreamId(streamId);
  if (!parsed) throw new Error(`${JSON.stringify(streamId)} is not a stream of any kind`);
  return parsed.key;
}

const entryOf = (streamId: string): StreamKindEntry | undefined => {
  const kind = streamKind(streamId);
  return kind && KINDS[kind];
};

/** An order's or an escrow's stream. */
export const isPayableStream = (streamId: string): boolean => entryOf(streamId)?.payable === true;

/** A stream whose events the ledger posts. */
export const holdsMoney = (streamId: string): boolean => entryOf(streamId)?.holdsMoney === true;

/** A stream whose events callbacks are planned from. */
export const plansCallbacks = (streamId: string): boolean => entryOf(streamId)?.plansCallbacks === true;

/** Whether an order or an escrow id names one, told apart by the prefix ids.ts gives it; any other id names neither. */
export function payableKind(id: string): PayableKind | undefined {
  for (const [kind, entry] of ENTRIES) if (entry.payable && entry.idPrefix && id.startsWith(entry.idPrefix)) return kind as PayableKind;
  return undefined;
}

/** The prefix of the ids of a payable kind (ids.ts makes them). */
export const idPrefixOf = (kind: PayableKind): string => KINDS[kind].idPrefix;

const KEY = /^[A-Za-z0-9_]{1,100}$/;

/** What a stream's name can be: one of our kinds, followed by an id of letters, digits and underscores. */
export function isStreamId(value: string): boolean {
  const parsed = parseStreamId(value);
  return parsed !== undefined && KEY.test(parsed.key);
}
