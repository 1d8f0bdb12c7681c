import { fold, type Decider } from '../shared/decider';

/**
 * Decider tests read as the business rule (STYLE.md):
 * `given(decider, history).when(command).then(events)`, `.thenThrows(ErrorClass)` or `.thenNothing()`.
 */
export function given<Command, Event, State>(decider: Decider<Command, Event, State>, history: readonly Event[]) {
  return {
    when(command: Command) {
      const decide = () => decider.decide(command, fold(decider, history));
      return {
        then(expected: readonly Event[]): void {
          expect(decide()).toEqual(expected);
        },
        thenThrows(error: new (...args: never[]) => Error): void {
          expect(decide).toThrow(error);
        },
        /** An idempotent no-op: the command was already satisfied, so nothing is appended. */
        thenNothing(): void {
          expect(decide()).toEqual([]);
        },
      };
    },
  };
}
