const HOUR_MS = 60 * 60 * 1000;

/**
 * When the reconciler asks the provider about an operation it has had no news of since `since`:
 * after `afterMs`, then after waits that double (2×, 4×, …), at most an hour apart. Returns the first
 * of those instants later than `notBefore`, with its index, which names the question so that every
 * process and every reconcile pass schedule the same question once.
 */
export function nextQuestion(since: number, afterMs: number, notBefore: number): { index: number; at: number } {
  let at = since + afterMs;
  let gap = afterMs;
  let index = 0;
  while (at <= notBefore) {
    at += gap;
    gap = Math.min(gap * 2, HOUR_MS);
    index += 1;
  }
  return { index, at };
}
