/**
 * `compute`'s answers kept for the last `limit` keys: for derivations repeated request after request (an
 * HMAC of the same salt and reference), where the inputs come from callers, so memory must stay bounded
 * whatever they send. A Map keeps insertion order: the oldest answer is forgotten first.
 */
export function boundedMemo<Args extends unknown[]>(limit: number, keyOf: (...args: Args) => string, compute: (...args: Args) => string): (...args: Args) => string {
  const kept = new Map<string, string>();
  return (...args: Args): string => {
    const key = keyOf(...args);
    let answer = kept.get(key);
    if (answer === undefined) {
      answer = compute(...args);
      if (kept.size >= limit) kept.delete(kept.keys().next().value!);
      kept.set(key, answer);
    }
    return answer;
  };
}
