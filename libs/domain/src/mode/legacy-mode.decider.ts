import type { Decider } from '../shared/decider';
import type { Mode } from './mode';

/**
 * The mode of everything written before tenants had one, decided once per deployment and never again:
 * the read path gives a registration without a mode this one (docs/concepts/modes.md).
 */
export type LegacyModeEvent = { type: 'LegacyModeDecided'; data: { mode: Mode; reason: string; decidedAt: string } };

export type LegacyModeCommand = { type: 'DecideLegacyMode'; data: { mode: Mode; reason: string; at: string } };

export interface LegacyModeState {
  mode?: Mode;
}

export const legacyModeDecider: Decider<LegacyModeCommand, LegacyModeEvent, LegacyModeState> = {
  initialState: () => ({}),
  evolve: (state, event) => (state.mode ? state : { mode: event.data.mode }),
  // The first decision stands: a later start, whatever its provider, reads the history as it was read.
  decide: (command, state) => (state.mode ? [] : [{ type: 'LegacyModeDecided', data: { mode: command.data.mode, reason: command.data.reason, decidedAt: command.data.at } }]),
};

/** The one stream that holds the decision. */
export const LEGACY_MODE_KEY = 'legacy';
