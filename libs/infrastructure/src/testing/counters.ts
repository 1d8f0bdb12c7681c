import { type Decider, DomainError } from '@app/domain';

export type Stepped = { type: 'Stepped'; data: { to: number } };
export type Step = { type: 'Step'; to: number } | { type: 'StepOn' };

export const stepped = (to: number): Stepped => ({ type: 'Stepped', data: { to } });

/** A counter that moves one step at a time: `Step` names the step it expects to take, `StepOn` takes the next. */
export const counter: Decider<Step, Stepped, number> = {
  initialState: () => 0,
  evolve: (_, event) => event.data.to,
  decide: (command, state) => {
    const to = command.type === 'StepOn' ? state + 1 : command.to;
    if (to !== state + 1) throw new DomainError('OUT_OF_STEP', `at ${state}, cannot step to ${to}`, 'conflict');
    return [stepped(to)];
  },
};

/** The counter, with nothing left to do once it reached 2. */
export const upToTwo: Decider<Step, Stepped, number> = { ...counter, decide: (command, state) => (state >= 2 ? [] : counter.decide(command, state)) };

export type Counted = { type: 'Counted'; data: { n: number } };

/** Counts every command: each one appends an event. */
export const tally: Decider<'Count', Counted, number> = {
  initialState: () => 0,
  evolve: (state) => state + 1,
  decide: (_, state) => [{ type: 'Counted', data: { n: state + 1 } }],
};
