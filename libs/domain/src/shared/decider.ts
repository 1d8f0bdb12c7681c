/** An aggregate as three pure functions (docs/concepts/architecture.md): the command handler is the only I/O. */
export interface Decider<Command, Event, State> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

export function fold<Event, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}

const keptFolds = new WeakMap<readonly unknown[], Map<object, unknown>>();

/**
 * `fold` of a history a process keeps between requests (libs/event-store/src/kept-histories.ts), whose array
 * is never changed (a longer history is a new array): its state is folded once per decider and reused while
 * the history stands, as a create escrow folds each payee's and commission rule's history on every request.
 * States are never changed in place (evolve returns a new one), so one state may serve every caller.
 */
export function foldKept<Event, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  if (events.length === 0) return decider.initialState();
  let folds = keptFolds.get(events);
  if (!folds) {
    folds = new Map();
    keptFolds.set(events, folds);
  }
  if (!folds.has(decider)) folds.set(decider, fold(decider, events));
  return folds.get(decider) as State;
}

/** A domain event as it travels between the domain and the store: a type name and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}
