import type { Decider } from '../shared/decider';

/** The log records who was given read access to it, and when; the key itself stays out of it. */
export interface AuditorRegistered {
  type: 'AuditorRegistered';
  data: { auditorId: string; name: string; registeredAt: string };
}

export type AuditorCommand = { type: 'RegisterAuditor'; data: { auditorId: string; name: string; at: string } };

export interface AuditorState {
  registered: boolean;
}

export const auditorDecider: Decider<AuditorCommand, AuditorRegistered, AuditorState> = {
  initialState: () => ({ registered: false }),
  evolve: () => ({ registered: true }),
  decide: ({ data }, state) => (state.registered ? [] : [{ type: 'AuditorRegistered', data: { auditorId: data.auditorId, name: data.name, registeredAt: data.at } }]),
};
