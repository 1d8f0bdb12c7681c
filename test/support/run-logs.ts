/**
 * Chaos runs whose log a test keeps: a run that throws or outlives the test's time (a patient run waits
 * for good) fails the file with its log, which says what it was still waiting for.
 */
export function keptRunLogs(): <T>(name: string, run: (log: (line: string) => void) => Promise<T>) => Promise<T> {
  const unfinished = new Map<string, string[]>();
  afterAll(() => {
    if (unfinished.size > 0) throw new Error([...unfinished].map(([name, lines]) => `${name} did not finish; its log:\n${lines.join('\n')}`).join('\n\n'));
  });
  return async (name, run) => {
    const lines: string[] = [];
    unfinished.set(name, lines);
    const result = await run((line) => lines.push(`${new Date().toISOString()} ${line}`));
    unfinished.delete(name);
    return result;
  };
}
