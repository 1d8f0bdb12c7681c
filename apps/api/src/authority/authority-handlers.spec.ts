import fc from 'fast-check';
import type { AppConfig } from '@app/config';
import type { SqlClient } from '@app/database';
import {
  accountDecider,
  AccountIsClosed,
  AccountNotFound,
  escrowDecider,
  EscrowNotFound,
  merchantDecider,
  merchantPrincipal,
  platformLinkDecider,
  platformLinkKey,
  type Principal,
  RedirectRefused,
  santim,
  streams,
  transferDecider,
  UnknownAllocationMerchant,
} from '@app/domain';
import { type EventMetadata, START } from '@app/event-store';
import type { CredentialStore, PayoutDestinations } from '@app/credentials';
import { Clocks, CommandRunner, systemClock } from '@app/infrastructure';
import { type PaymentProvider, PaymentProviders, type PayoutBooksDeps } from '@app/payments';
import { PartyRelations } from '@app/onboarding';
import { InMemoryEventStore } from '../../../../libs/event-store/src/testing/in-memory-event-store';
import { CloseAccountCommand, RotateWebhookSecretCommand, RequestPayoutCommand, SetPayoutDestinationCommand, SetPayoutSettingsCommand, UpdateAccountCommand, ChangeEscrowCommand, ReleaseAllocationCommand, CreateTransferCommand, ReverseTransferCommand, ChangeWebhookEndpointCommand, CreateWebhookEndpointCommand, type CreateWebhookEndpointDto } from '@app/contract';
import { ChangeEscrowHandler, CreateEscrowCommand, CreateEscrowHandler, ReleaseAllocationHandler } from '@app/features/escrows';
import { RotateWebhookSecretHandler } from '@app/features/callbacks';
import { RequestPayoutHandler, SetPayoutDestinationHandler, SetPayoutSettingsHandler } from '@app/features/payouts';
import { ChangeWebhookEndpointHandler, CreateWebhookEndpointHandler } from '@app/features/webhook-endpoints';
import { CloseAccountHandler, UpdateAccountHandler } from '@app/features/accounts';
import type { CreateEscrowDto } from '../escrows/create-escrow/create-escrow.dto';
import { CreateTransferHandler, ReverseTransferHandler, UnknownTransferParty } from '@app/features/transfers';

/**
 * The authority rule (libs/domain/src/authority/authority.ts) as the real command handlers apply it, on
 * the in-memory event store: every money-moving command × every relation of the named party to the
 * caller, the caller a platform (`mkt-1`) using its own key. A command the table allows gets past its
 * authority check (it appends, or reaches the balance and settings reads this store has no database
 * for); one it refuses answers the route's "unknown party" refusal and appends nothing.
 */

const PLATFORM = { merchantId: 'mkt-1', idSalt: 'salt-1', mode: 'test' as const };
const principal = merchantPrincipal(PLATFORM.merchantId);
const metadata: EventMetadata = { correlationId: 'req-1', actor: { type: 'merchant', id: PLATFORM.merchantId } };
const AT = () => new Date().toISOString();

/** Each relation a named party may have to the platform, and the id that has it in the world below. */
const PARTIES = {
  itself: 'mkt-1',
  ownAccount: 'acct-own',
  ownRejectedAccount: 'acct-rejected',
  ownClosedAccount: 'acct-closed',
  siblingPlatformsAccount: 'acct-theirs',
  anotherPlatform: 'mkt-2',
  plainMerchant: 'shop-plain',
  linkedMerchant: 'shop-linked',
  revokedLink: 'shop-revoked',
  unknown: 'nobody',
} as const;
type Relation = keyof typeof PARTIES;
const RELATIONS = Object.keys(PARTIES) as Relation[];

/**
 * Past the authority check: the handler went on to read or keep what the in-memory world has no database
 * or credentials for; `reached` is what it asked for (the query's parameters, the party's books or secret).
 */
class PastAuthority extends Error {
  constructor(readonly reached?: unknown) {
    super('past the authority check');
  }
}
const noDatabase = { query: async (_sql: string, params?: unknown) => { throw new PastAuthority(params); } } as unknown as SqlClient;
/** A runner that reads as the world's does and stops at the first decision, naming the stream it was to decide on. */
const decidingPastAuthority = (runner: CommandRunner): CommandRunner =>
  Object.assign(Object.create(runner) as CommandRunner, { run: async (streamId: string) => Promise.reject(new PastAuthority(streamId)) });
/** Every party here is a test tenant's, whose money moves on every deployment (PaymentProviders.assertTenantCanMove). */
const testProviders = new PaymentProviders({} as PaymentProvider, undefined, { modeOf: async () => 'test' });
const noBooks = { runner: { decideAcross: async (_decide: unknown, _metadata: unknown, lane: string) => { throw new PastAuthority(lane); } } } as unknown as PayoutBooksDeps;

async function world() {
  const store = new InMemoryEventStore();
  const runner = new CommandRunner(store);
  const relations = new PartyRelations(store);
  const at = AT();
  for (const merchantId of ['mkt-1', 'mkt-2', 'shop-plain', 'shop-linked', 'shop-revoked']) {
    await runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RegisterMerchant', data: { merchantId, name: merchantId, at, mode: 'test' } }, metadata);
  }
  const link = (merchantId: string, type: 'LinkPlatform' | 'RevokePlatformLink') =>
    runner.run(streams.platformLink(platformLinkKey(merchantId, 'mkt-1')), platformLinkDecider, { type, data: { merchantId, platformId: 'mkt-1', decidedBy: 'merchant', at } }, metadata);
  await link('shop-linked', 'LinkPlatform');
  await link('shop-revoked', 'LinkPlatform');
  await link('shop-revoked', 'RevokePlatformLink');
  for (const [accountId, merchantId] of [['acct-own', 'mkt-1'], ['acct-rejected', 'mkt-1'], ['acct-closed', 'mkt-1'], ['acct-theirs', 'mkt-2']]) {
    await runner.run(streams.account(accountId), accountDecider, { type: 'CreateAccount', data: { accountId, merchantId, name: accountId, type: 'individual', requestFingerprint: accountId, at } }, metadata);
  }
  await runner.run(streams.account('acct-rejected'), accountDecider, { type: 'RejectAccount', data: { accountId: 'acct-rejected', decidedBy: { type: 'admin', id: 'admin' }, reason: 'licence forged', at } }, metadata);
  const settled = { available: 0, onHold: 0, inTransit: 0, openAllocations: 0 };
  await runner.run(streams.account('acct-closed'), accountDecider, { type: 'CloseAccount', data: { accountId: 'acct-closed', merchantId: 'mkt-1', reason: 'left', holdings: settled, at } }, metadata);
  return { store, runner, relations };
}
type World = Awaited<ReturnType<typeof world>>;

/** An escrow as stored before the rule (straight to its decider): created by `creator`, paid, its allocation to `payee` released. */
async function releasedEscrow({ runner }: World, escrowId: string, creator: string, payee: string): Promise<void> {
  const now = Date.now();
  const amount = santim(10_000);
  const created = {
    escrowId, merchantId: creator, orderId: escrowId, amount, currency: 'ETB' as const,
    customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' },
    items: [{ productId: 'p-1', itemName: 'Coffee', quantity: 1, unitPrice: amount }],
    allocations: [{ merchantId: payee, amount }],
    expiresAt: new Date(now + 1_800_000).toISOString(), requestFingerprint: escrowId, createdAt: new Date(now).toISOString(),
  };
  const escrow = streams.escrow(escrowId);
  await runner.run(escrow, escrowDecider, { type: 'CreateEscrow', data: created }, metadata);
  await runner.run(escrow, escrowDecider, { type: 'RecordPayment', data: { externalReferenceId: `pay-${escrowId}`, paymentType: 'telebirr', amount, at: AT() } }, metadata);
  await runner.run(escrow, escrowDecider, { type: 'ReleaseFunds', data: { escrowId, merchantId: creator, releases: [{ merchantId: payee }], at: AT() } }, metadata);
}

/** A transfer as stored, its destination `destination` (a penalty from it to the platform when it is the platform). */
async function transferTo({ runner }: World, transferId: string, destination: string): Promise<void> {
  const source = destination === PLATFORM.merchantId ? 'shop-linked' : PLATFORM.merchantId;
  const terms = { transferId, platformId: PLATFORM.merchantId, source, destination, amount: santim(500), description: 'Bonus', allowNegative: false, callbackUrl: null };
  await runner.run(streams.transfer(transferId), transferDecider, { type: 'CreateTransfer', data: { ...terms, sourceAvailable: 1_000_000, at: AT() } }, metadata);
}

function escrowRequest(orderId: string, payee: string): CreateEscrowDto {
  return {
    orderId, amount: 100, currency: 'ETB', customerName: 'Abebe Kebede', customerPhoneNumber: '0911234567', description: 'Order',
    items: [{ productId: 'sku-1', item_name: 'Coffee', quantity: 1, unit_price: 100 }],
    allocations: [{ merchantId: payee, amount: 100 }],
  } as CreateEscrowDto;
}

interface MoneyCommand {
  /** The movement the table is asked about, and what the command does to the named party. */
  movement: string;
  /** The route's refusal for a party it does not know. */
  refusal: new (...args: never[]) => Error;
  /** What the command acts on, written before it runs (an escrow or a transfer of before). */
  ready?(w: World, party: string): Promise<void>;
  run(w: World, party: string): Promise<unknown>;
}

const COMMANDS: Record<string, MoneyCommand> = {
  'create an escrow allocating to it (credit)': {
    movement: 'credit',
    refusal: UnknownAllocationMerchant,
    run: (w, party) => new CreateEscrowHandler(w.runner, config, new Clocks(w.store, systemClock), w.store).execute(new CreateEscrowCommand(PLATFORM, escrowRequest(`O-${party}`, party), metadata)),
  },
  'transfer to it (credit)': {
    movement: 'credit',
    refusal: UnknownTransferParty,
    run: (w, party) => new CreateTransferHandler(w.runner, noBooks, w.relations, systemClock).execute(new CreateTransferCommand(principal, PLATFORM, { to: party, amount: 1, description: 'Bonus' }, metadata)),
  },
  'transfer from it (debit)': {
    movement: 'debit',
    refusal: UnknownTransferParty,
    run: (w, party) => new CreateTransferHandler(w.runner, noBooks, w.relations, systemClock).execute(new CreateTransferCommand(principal, PLATFORM, { from: party, amount: 1, description: 'Penalty' }, metadata)),
  },
  'reverse a transfer to it (debit)': {
    movement: 'debit',
    refusal: UnknownTransferParty,
    ready: (w, party) => transferTo(w, 'tr-1', party),
    run: (w) => {
      return new ReverseTransferHandler(w.runner, noBooks, w.relations, systemClock).execute(new ReverseTransferCommand(principal, PLATFORM, 'tr-1', undefined, metadata));
    },
  },
  'reverse an allocation released to it (debit)': {
    movement: 'debit',
    refusal: UnknownAllocationMerchant,
    ready: (w, party) => releasedEscrow(w, 'esc-1', PLATFORM.merchantId, party),
    run: (w, party) => {
      const reverse = (at: string) => ({ type: 'ReverseAllocation' as const, data: { escrowId: 'esc-1', merchantId: PLATFORM.merchantId, allocation: party, reason: 'returned', refundFee: false, at } });
      return new ChangeEscrowHandler(w.runner, w.relations, new Clocks(w.store, systemClock), noBooks, testProviders).execute(new ChangeEscrowCommand(principal, PLATFORM, 'esc-1', reverse, metadata));
    },
  },
  'release an allocation of an escrow it created (escrow)': {
    movement: 'escrow',
    refusal: EscrowNotFound,
    ready: async (w, party) => {
      await w.runner.run(streams.escrow('esc-2'), escrowDecider, { type: 'CreateEscrow', data: escrowCreatedBy(party) }, metadata);
      await w.runner.run(streams.escrow('esc-2'), escrowDecider, { type: 'RecordPayment', data: { externalReferenceId: 'pay-2', paymentType: 'telebirr', amount: santim(10_000), at: AT() } }, metadata);
    },
    run: (w) => {
      return new ReleaseAllocationHandler(w.runner, new Clocks(w.store, systemClock)).execute(new ReleaseAllocationCommand(principal, PLATFORM, 'esc-2', [{ merchantId: 'shop-linked' }], metadata));
    },
  },
  'update it as an account (redirect)': {
    movement: 'redirect',
    refusal: AccountNotFound,
    run: (w, party) =>
      new UpdateAccountHandler(w.runner, { paymentProvider: 'chapa' } as AppConfig, w.relations, systemClock, { modeOf: async () => 'live' })
        .execute(new UpdateAccountCommand(principal, PLATFORM.merchantId, party, { name: 'Renamed' }, metadata))
        // A closed account got past the rule and is refused by its own: it takes no more changes.
        .catch((error: unknown) => Promise.reject(error instanceof AccountIsClosed ? new PastAuthority() : error)),
  },
  'close it as an account (redirect)': {
    movement: 'redirect',
    refusal: AccountNotFound,
    run: (w, party) => new CloseAccountHandler(w.runner, noBooks, noDatabase, w.relations, new Clocks(w.store, systemClock)).execute(new CloseAccountCommand(principal, PLATFORM.merchantId, party, 'left', metadata)),
  },
};

function escrowCreatedBy(creator: string) {
  const now = Date.now();
  const amount = santim(10_000);
  return {
    escrowId: 'esc-2', merchantId: creator, orderId: 'esc-2', amount, currency: 'ETB' as const,
    customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' },
    items: [{ productId: 'p-1', itemName: 'Coffee', quantity: 1, unitPrice: amount }],
    allocations: [{ merchantId: 'shop-linked', amount }],
    expiresAt: new Date(now + 1_800_000).toISOString(), requestFingerprint: 'esc-2', createdAt: new Date(now).toISOString(),
  };
}

/**
 * The table of docs/concepts/authority.md for a platform's own key, command by command: what each allows
 * on a party of each relation. Written out, not computed from the rule, so that the handlers are held to
 * the documented table.
 */
const ALLOWED: Record<string, readonly Relation[]> = {
  // A credit: itself, its accounts unless rejected or closed, a merchant linked to it.
  'create an escrow allocating to it (credit)': ['itself', 'ownAccount', 'linkedMerchant'],
  // A transfer to or from the platform itself moves nothing: refused as today.
  'transfer to it (credit)': ['ownAccount', 'linkedMerchant'],
  'transfer from it (debit)': ['ownAccount', 'ownRejectedAccount', 'ownClosedAccount', 'linkedMerchant'],
  'reverse a transfer to it (debit)': ['itself', 'ownAccount', 'ownRejectedAccount', 'ownClosedAccount', 'linkedMerchant'],
  'reverse an allocation released to it (debit)': ['itself', 'ownAccount', 'ownRejectedAccount', 'ownClosedAccount', 'linkedMerchant'],
  // An escrow is its creator's alone.
  'release an allocation of an escrow it created (escrow)': ['itself'],
  // Redirect: its own accounts (the platform itself has no account to update); never a linked merchant.
  'update it as an account (redirect)': ['ownAccount', 'ownRejectedAccount', 'ownClosedAccount'],
  'close it as an account (redirect)': ['ownAccount', 'ownRejectedAccount', 'ownClosedAccount'],
};

const NAMES = Object.keys(COMMANDS);
const CASES = NAMES.flatMap((command) => RELATIONS.map((relation) => [command, relation] as const));

describe('the authority rule in the real handlers: every money-moving command × every relation', () => {
  it(`covers ${NAMES.length} commands × ${RELATIONS.length} relations`, () => {
    expect(CASES).toHaveLength(NAMES.length * RELATIONS.length);
  });

  it('allows exactly what the table allows; a refusal is the route’s unknown party and appends nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CASES), async ([name, relation]) => {
        const w = await world();
        const command = COMMANDS[name];
        const party = PARTIES[relation];
        await command.ready?.(w, party);
        const before = (await w.store.readAll(START, 10_000)).length;
        const outcome = await command.run(w, party).then(
          () => 'allowed',
          (error: unknown) => (error instanceof PastAuthority ? 'allowed' : error instanceof command.refusal ? 'refused' : error),
        );
        const written = (await w.store.readAll(START, 10_000)).length - before;
        const expected = ALLOWED[name].includes(relation) ? 'allowed' : 'refused';
        expect({ name, relation, outcome }).toEqual({ name, relation, outcome: expected });
        if (expected === 'refused') expect({ name, relation, written }).toEqual({ name, relation, written: 0 });
      }),
      // Every case once (examples), then as many drawn at random, each on a world of its own.
      { examples: CASES.map((c) => [c]), numRuns: CASES.length },
    );
  });
});

/**
 * The redirect commands name no party: the party is the one the principal acts as (authority.ts
 * `redirectedParty`). For each kind of principal, the party the table lets it redirect (none: refused),
 * written out from docs/concepts/authority.md: a merchant and a seller themselves, a platform the account
 * it acts for (rejected or not: redirect does not ask the status), an auditor and the operator nothing.
 */
const PRINCIPALS: Record<string, { principal: Principal; party?: string }> = {
  'a merchant (itself)': { principal: principal, party: 'mkt-1' },
  'a platform for its own account': { principal: { kind: 'platformForAccount', platformId: 'mkt-1', accountId: 'acct-own', accountStatus: 'PENDING_VERIFICATION' }, party: 'acct-own' },
  'a platform for its own rejected account': { principal: { kind: 'platformForAccount', platformId: 'mkt-1', accountId: 'acct-rejected', accountStatus: 'REJECTED' }, party: 'acct-rejected' },
  'a seller (its own account)': { principal: { kind: 'seller', accountId: 'acct-own', platformId: 'mkt-1' }, party: 'acct-own' },
  'an auditor': { principal: { kind: 'auditor', auditorId: 'aud-1' } },
  'the operator': { principal: { kind: 'operator' } },
};

/** Credentials that keep nothing: each call says whose secret or number it was asked to keep. */
const noCredentials = new Proxy({}, { get: () => async (party: string) => { throw new PastAuthority(party); } }) as CredentialStore & PayoutDestinations;
const config = { callbackAllowPrivateUrls: false } as AppConfig;
const endpoint = { url: 'https://merchant.example/webhooks', events: ['PAYOUT_PAID'] } as CreateWebhookEndpointDto;

const REDIRECTS: Record<string, (w: World, caller: Principal) => Promise<unknown>> = {
  'request a payout': (w, caller) => new RequestPayoutHandler(noBooks, new Clocks(w.store, systemClock), testProviders).execute(new RequestPayoutCommand(caller, undefined, metadata)),
  // It reads nothing but the party's settings stream: past the check, it decides there.
  'change the payout settings': (w, caller) =>
    new SetPayoutSettingsHandler(decidingPastAuthority(w.runner), config, new Clocks(w.store, systemClock)).execute(new SetPayoutSettingsCommand(caller, { change: { minimumAmount: santim(10_000) } }, metadata)),
  'set the payout destination': (w, caller) =>
    new SetPayoutDestinationHandler(w.runner, noCredentials, systemClock, config).execute(
      new SetPayoutDestinationCommand(caller, { kind: 'bank', institution: 'CBE', holderName: 'Abebe Kebede', accountNumber: '1000123456789' }, metadata),
    ),
  'create a webhook endpoint': (w, caller) => new CreateWebhookEndpointHandler(w.runner, noCredentials, config, systemClock).execute(new CreateWebhookEndpointCommand(caller, endpoint, metadata)),
  'rotate a webhook endpoint secret': (w, caller) =>
    new ChangeWebhookEndpointHandler(w.runner, noCredentials, config, systemClock).execute(new ChangeWebhookEndpointCommand(caller, 'we_1', { type: 'rotate' }, metadata)),
  'rotate the webhook secret': (w, caller) => new RotateWebhookSecretHandler(w.runner, noCredentials, systemClock).execute(new RotateWebhookSecretCommand(caller, metadata)),
};

const REDIRECT_CASES = Object.keys(REDIRECTS).flatMap((command) => Object.keys(PRINCIPALS).map((caller) => [command, caller] as const));

describe('the authority rule in the real handlers: every redirect command × every kind of principal', () => {
  it(`covers ${Object.keys(REDIRECTS).length} commands × ${Object.keys(PRINCIPALS).length} principals`, () => {
    expect(REDIRECT_CASES).toHaveLength(Object.keys(REDIRECTS).length * Object.keys(PRINCIPALS).length);
  });

  it('acts on the party the principal acts as, and on none for a principal the table refuses, appending nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...REDIRECT_CASES), async ([name, caller]) => {
        const w = await world();
        const { principal: who, party } = PRINCIPALS[caller];
        const before = (await w.store.readAll(START, 10_000)).length;
        const outcome = await REDIRECTS[name](w, who).then(
          () => 'allowed',
          (error: unknown) => (error instanceof PastAuthority ? { reached: JSON.stringify(error.reached) } : error instanceof RedirectRefused ? 'refused' : error),
        );
        const written = (await w.store.readAll(START, 10_000)).length - before;
        const expected = party === undefined ? 'refused' : { reached: expect.stringContaining(party) };
        expect({ name, caller, outcome }).toEqual({ name, caller, outcome: expected });
        if (party === undefined) expect({ name, caller, written }).toEqual({ name, caller, written: 0 });
      }),
      { examples: REDIRECT_CASES.map((c) => [c]), numRuns: REDIRECT_CASES.length },
    );
  });
});
