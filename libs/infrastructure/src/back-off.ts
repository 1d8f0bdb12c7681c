/**
 * How often a command is decided again after another writer moved its stream. Within a process,
 * commands on one stream take turns (one-command-per-stream.ts); these attempts answer for writers in
 * other processes, which back off by a random wait that doubles each time, so replicas contending for
 * one stream spread out instead of colliding again in step. Ten attempts wait at most about two
 * seconds in all: a command refused after them met contention that retrying did not resolve.
 */
export const MAX_ATTEMPTS = 10;
const FIRST_BACKOFF_MS = 4;
const MAX_BACKOFF_MS = 400;

/** "Full jitter": a wait drawn between nothing and a ceiling that doubles with each attempt. */
export function backOff(attempt: number): Promise<void> {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempt - 1));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
