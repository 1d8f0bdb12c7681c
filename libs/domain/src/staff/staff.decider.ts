import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';

/**
 * One of the operator's staff, given a key of their own to the admin API and the audit console, so that each
 * decision they take names them (docs/guides/marketplaces.md). As for auditors (auditor/auditor.decider.ts), the
 * log records who was given access and when it ended; the key itself stays out of it.
 */
export type StaffEvent =
  | { type: 'StaffMemberRegistered'; data: { staffId: string; name: string; registeredAt: string } }
  | { type: 'StaffKeyRevoked'; data: { staffId: string; revokedAt: string } };

export type StaffCommand =
  | { type: 'RegisterStaffMember'; data: { staffId: string; name: string; at: string } }
  | { type: 'RevokeStaffKey'; data: { staffId: string; at: string } };

export interface StaffState {
  registered: boolean;
  revoked: boolean;
}

/** A staff id the CLI was given that no staff member has. */
export class StaffMemberNotFound extends DomainError {
  constructor(staffId: string) {
    super('STAFF_MEMBER_NOT_FOUND', `No staff member ${staffId}`, 'not_found');
  }
}

export const staffDecider: Decider<StaffCommand, StaffEvent, StaffState> = {
  initialState: () => ({ registered: false, revoked: false }),
  evolve: (state, event) => (event.type === 'StaffMemberRegistered' ? { ...state, registered: true } : { ...state, revoked: true }),
  decide: (command, state) => {
    if (command.type === 'RegisterStaffMember') {
      return state.registered ? [] : [{ type: 'StaffMemberRegistered', data: { staffId: command.data.staffId, name: command.data.name, registeredAt: command.data.at } }];
    }
    if (!state.registered) throw new StaffMemberNotFound(command.data.staffId);
    // Revoking again changes nothing: the key stopped working the first time.
    return state.revoked ? [] : [{ type: 'StaffKeyRevoked', data: { staffId: command.data.staffId, revokedAt: command.data.at } }];
  },
};
