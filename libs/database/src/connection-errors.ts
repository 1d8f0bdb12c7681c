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
