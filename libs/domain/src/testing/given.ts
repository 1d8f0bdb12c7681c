import { fold, type Decider } from '../shared/decider';

/**
 * Decider tests read as the business rule:
 * `given(decider, history).when(command).then(events)`, `.thenThrows(ErrorClass)`, `.thenNothing()`,
 * or `.thenState(expected)` for a rule about what the command leaves rather than what it records.
 */
export function given<Command, Event, State>(decider: Decider<Command, Event, State>, history: readonly Event[]) {
  return {
    when(command: Command) {
      const decide = () => decider.decide(command, fold(decider, history));
      return {
        then(expected: readonly Event[]): void {
          expect(decide()).toEqual(expected);
        },
        /** The refusal: its class, or (as jest's toThrow takes it) what the error carries. */
        thenThrows(error: Parameters<jest.Matchers<unknown>['toThrow']>[0]): void {
          expect(decide).toThrow(error);
        },
        /** An idempotent no-op: the command was already satisfied, so nothing is appended. */
        thenNothing(): void {
          expect(decide()).toEqual([]);
        },
        /** The state after the history and the events the command decided (matched as toMatchObject does). */
        thenState(expected: Partial<State> | Record<string, unknown>): void {
          expect(fold(decider, [...history, ...decide()])).toMatchObject(expected);
        },
      };
    },
  };
}
