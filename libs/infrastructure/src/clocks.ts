import { Inject, Injectable } from '@nestjs/common';
import { type Mode, payableKind, streams, TestClockLiveMode, TestClockNotFound, testClockDecider, type TestClockEvent, fold } from '@app/domain';
import { EVENT_STORE, type EventMetadata, type EventStore } from '@app/event-store';
import { CLOCK, type Clock } from './clock';

/** The Clock an object reads, and the test clock it stands on when it is attached to one. */
export interface ObjectClock {
  clock: Clock;
  testClockId?: string;
}

/** A clock standing at one instant: a test clock's time, or the instant of one of its objects' due work. */
export const clockAt = (instant: string | number | Date): Clock => {
  const at = new Date(instant);
  return { now: () => new Date(at) };
};

/**
 * What a command decided on an object's clock writes beside its events: the test clock and its time
 * (the business time, which the event's data carries too), so the audit trail reads "at 2030-01-10 by
 * test clock clock_…" while recordedAt stays the real time of the append.
 */
export function onClock(metadata: EventMetadata, objectClock: ObjectClock): EventMetadata {
  if (!objectClock.testClockId) return metadata;
  return { ...metadata, testClockId: objectClock.testClockId, businessAt: objectClock.clock.now().toISOString() };
}

/** Streams whose attachment this process remembers: an object's test clock never changes, so it is read once. */
const REMEMBERED = 50_000;

/**
 * The `Clocks` resolver (docs/concepts/time.md): the Clock of an object is the system clock unless its
 * creation event names a test clock, and then a clock standing at that test clock's time. Handlers and
 * the payment work ask it instead of reading the injected system clock for an object's rules.
 */
@Injectable()
export class Clocks {
  private readonly attached = new Map<string, string | null>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly system: Clock,
  ) {}

  /** The real time: what an object on no test clock reads. */
  real(): ObjectClock {
    return { clock: this.system };
  }

  /**
   * The test clock a create names, for the tenant that creates: a live tenant's object never attaches,
   * and another tenant's clock, or a deleted one, is not found.
   */
  async named(testClockId: string, tenant: { merchantId: string; mode: Mode }): Promise<ObjectClock> {
    if (tenant.mode !== 'test') throw new TestClockLiveMode();
    const clock = await this.standing(testClockId);
    if (!clock || clock.deleted || clock.merchantId !== tenant.merchantId) throw new TestClockNotFound(testClockId);
    return { clock: clockAt(clock.frozenTime), testClockId };
  }

  /** The clock of an order, an escrow or an account, by its stream: its test clock's time, or the real time. */
  async ofStream(streamId: string): Promise<ObjectClock> {
    return this.on(await this.attachment(streamId));
  }

  /** The clock of an order or an escrow, by its id; an id of neither names no object, and reads the real time. */
  ofPayable(payableId: string): Promise<ObjectClock> {
    const kind = payableKind(payableId);
    return kind ? this.ofStream(streams[kind](payableId)) : Promise.resolve(this.real());
  }

  /**
   * The clock of a merchant's or an account's money (its payouts, its holding period, its schedule): an
   * account's own clock; a merchant is never attached (docs/concepts/time.md), and one with a merchant
   * stream and no account stream is remembered as on none, so its requests read nothing after its first.
   */
  async ofParty(partyId: string): Promise<ObjectClock> {
    return this.on(await this.attachment(streams.account(partyId), streams.merchant(partyId)));
  }

  /** The clock of an account already read: it names its own test clock, so nothing is read to find it. */
  ofAccount(account: { testClockId?: string }): Promise<ObjectClock> {
    return this.on(account.testClockId ?? null);
  }

  /** Each account's time now, by its id (its test clock's for one attached to it): what a page of accounts' balances is read at. */
  async nowOfAccounts(accounts: readonly { accountId: string; testClockId?: string }[]): Promise<Map<string, Date>> {
    // Each test clock read once, however many of the page's accounts are attached to it.
    const clockIds = [...new Set(accounts.map((account) => account.testClockId ?? null))];
    const nows = new Map(await Promise.all(clockIds.map(async (testClockId) => [testClockId, (await this.on(testClockId)).clock.now()] as const)));
    return new Map(accounts.map((account) => [account.accountId, nows.get(account.testClockId ?? null)!]));
  }

  private async on(testClockId: string | null): Promise<ObjectClock> {
    if (!testClockId) return this.real();
    const clock = await this.standing(testClockId);
    // A deleted clock keeps its time: its objects stay where it left them.
    return { clock: clockAt(clock?.frozenTime ?? this.system.now()), testClockId };
  }

  private async standing(testClockId: string) {
    const history = await this.store.readStream(streams.testClock(testClockId));
    return fold(testClockDecider, history as unknown as TestClockEvent[]).clock;
  }

  /**
   * An object this process has just created on `objectClock` (its creation event names that test clock, or
   * none): a later command on it in this process finds its clock without reading that event again.
   */
  created(streamId: string, { testClockId }: ObjectClock): void {
    this.remember(streamId, testClockId ?? null);
  }

  /**
   * The test clock the stream's creation event names, read alone. A stream not yet created names none and
   * is asked again next time, unless the object is something else instead (`otherwise` exists: a party's
   * merchant stream, and a merchant never becomes an account), which is on no clock for good.
   */
  private async attachment(streamId: string, otherwise?: string): Promise<string | null> {
    const known = this.attached.get(streamId);
    if (known !== undefined) return known;
    const created = await this.store.readFirstEvent(streamId);
    if (!created && !(otherwise !== undefined && (await this.store.readFirstEvent(otherwise)))) return null;
    const testClockId = (created?.data as { testClockId?: string } | undefined)?.testClockId ?? null;
    this.remember(streamId, testClockId);
    return testClockId;
  }

  private remember(streamId: string, testClockId: string | null): void {
    if (this.attached.size >= REMEMBERED) this.attached.delete(this.attached.keys().next().value!);
    this.attached.set(streamId, testClockId);
  }
}
