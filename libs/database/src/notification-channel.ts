import { createHash } from 'node:crypto';

/** PostgreSQL truncates identifiers, and so channel names, to 63 bytes. */
const MAX_CHANNEL_LENGTH = 63;

/**
 * The NOTIFY channel for `topic` in one deployment. Notifications are server-wide, so the schema is
 * part of the name; it is kept to [a-z0-9_] so it is the same unquoted in LISTEN and as a string
 * literal in pg_notify, and a name too long is shortened with a hash that keeps it unique.
 */
export function notificationChannel(schema: string, topic: string): string {
  const name = `${topic}_${schema}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (name.length <= MAX_CHANNEL_LENGTH) return name;
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${name.slice(0, MAX_CHANNEL_LENGTH - digest.length - 1)}_${digest}`;
}
