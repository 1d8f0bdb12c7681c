/** Socket failures: the server is down, restarting, or the network between is. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);

/**
 * Whether an error says PostgreSQL could not be reached, rather than that it refused what was asked:
 * worth waiting out (a restart, a failover), where an error in a statement or a wrong password is not.
 * SQLSTATE class 08 is connection exceptions; 57P01–57P03 are shutdowns and a server still starting;
 * 25006 is a write refused by a read-only server, which a connection meets when its primary was demoted
 * to a standby under it (https://www.postgresql.org/docs/current/errcodes-appendix.html).
 */
export function isConnectionError(error: unknown): boolean {
  // Not `instanceof Error`: socket errors are made by Node's own realm, which a VM context (Jest) does not share.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '25006')) return true;
  // node-postgres reports a connection the server closed under it by message only, and a query on a
  // client whose connection already failed (a backend terminated mid-migration) likewise.
  return typeof message === 'string' && /Connection terminated|connection timeout|encountered a connection error and is not queryable/i.test(message);
}

/**
 * `attempt` again while it fails on a connection (isConnectionError), waiting 250 ms and doubling up to
 * 5 s, until `withinMs` has passed: for work a process does once at its start, which a PostgreSQL
 * restart or failover meanwhile would otherwise end by exiting. Only for work that is safe to ask again
 * (it reads before it appends, at the revisions it read). Any other error, or the last, is thrown.
 */
export async function waitingOutDisconnections<T>(attempt: () => Promise<T>, options: { withinMs: number; retrying: (error: unknown, waitMs: number) => void }): Promise<T> {
  const deadline = Date.now() + options.withinMs;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConnectionError(error) || Date.now() + wait > deadline) throw error;
      options.retrying(error, wait);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
