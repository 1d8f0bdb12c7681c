import type { SqlClient } from '@app/database';
import { LocalAppendSignal } from '../local-append-signal';

/**
 * The append signal of a PostgreSQL store: an append made here, or, announced by a NOTIFY the append
 * itself sends (delivered at commit, so never before the events are readable), one made by another
 * process sharing the schema. A NOTIFY carrying this store's own origin is its own append coming back:
 * the store told its subscriptions of it already, with its events' types (quiet types then keep a
 * follower from reading for its own bookkeeping), so it is not told again.
 */
export class AppendSignal extends LocalAppendSignal {
  private listening = false;

  constructor(
    private readonly db: SqlClient,
    private readonly channel: string | undefined,
    private readonly origin: string,
  ) {
    super();
  }

  /** Starts listening to other processes' appends, once. */
  listen(): void {
    if (this.channel === undefined || this.listening) return;
    this.listening = true;
    // Once listening, subscriptions read again: an append made while the LISTEN was being set up
    // was announced to no one. Without the wake-up, polling alone still finds other processes' events.
    this.db
      .listen(this.channel, (payload) => {
        if (payload !== this.origin) this.signal();
      })
      .then(() => this.signal())
      .catch(() => undefined);
  }
}
