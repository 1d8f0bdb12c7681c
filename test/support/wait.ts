/**
 * Waiting in tests has no deadline of its own: a loaded machine only makes a wait longer, and the one
 * limit is jest's `testTimeout` (jest.config.js). What a test leaves unfinished when it ends (at that
 * limit, or failed elsewhere while a wait ran beside) is stopped here, and named in its failure.
 */
const unfinished = new Set<{ what: () => string; stop: () => void }>();

/** Registers work that must not outlive its test; call the returned function once it has finished. */
export function untilTestEnds(what: () => string, stop: () => void): () => void {
  const entry = { what, stop };
  unfinished.add(entry);
  return () => unfinished.delete(entry);
}

function endOfTest(): void {
  const left = [...unfinished];
  unfinished.clear();
  for (const entry of left) entry.stop();
  if (left.length > 0) throw new Error(`the test ended while still waiting for:\n${left.map((entry) => `- ${entry.what()}`).join('\n')}`);
}
// Registered at the top level of every test file that waits (it imports this module while jest collects it).
afterEach(endOfTest);
afterAll(endOfTest);

/** For code under test whose wait takes a number: the longest timer Node keeps, so it never gives up before its test does. */
export const LONGER_THAN_ANY_TEST_MS = 2 ** 31 - 1;

/**
 * Polls until `check` returns a value (not undefined/false), for outcomes that arrive asynchronously.
 * `what` names the outcome in a failure; as a function, it can tell what the last poll saw.
 */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, what: string | (() => string)): Promise<T> {
  const describe = typeof what === 'string' ? () => what : what;
  let last: unknown;
  let stopped = false;
  const done = untilTestEnds(
    () => `${describe()}${last ? ` (last error: ${String(last)})` : ''}`,
    () => (stopped = true),
  );
  try {
    while (!stopped) {
      try {
        const value = await check();
        if (value !== undefined && value !== false) return value;
      } catch (error) {
        last = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`stopped waiting for ${describe()}: the test ended`);
  } finally {
    done();
  }
}
