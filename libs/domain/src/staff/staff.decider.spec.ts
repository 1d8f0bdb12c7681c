import { given } from '../testing/given';
import { StaffMemberNotFound, staffDecider, type StaffEvent } from './staff.decider';

const registered: StaffEvent = { type: 'StaffMemberRegistered', data: { staffId: 'stf_1', name: 'Almaz Tesfaye', registeredAt: '2026-11-29T08:00:00.000Z' } };
const revoked: StaffEvent = { type: 'StaffKeyRevoked', data: { staffId: 'stf_1', revokedAt: '2026-11-29T09:00:00.000Z' } };
const revoke = { type: 'RevokeStaffKey', data: { staffId: 'stf_1', at: '2026-11-29T09:00:00.000Z' } } as const;

describe('staff members', () => {
  it('registers a staff member once', () => {
    given(staffDecider, []).when({ type: 'RegisterStaffMember', data: { staffId: 'stf_1', name: 'Almaz Tesfaye', at: '2026-11-29T08:00:00.000Z' } }).then([registered]);
    given(staffDecider, [registered]).when({ type: 'RegisterStaffMember', data: { staffId: 'stf_1', name: 'Almaz Tesfaye', at: '2026-11-29T08:05:00.000Z' } }).thenNothing();
  });

  it("revokes a staff member's key once; an unknown staff member is refused", () => {
    given(staffDecider, [registered]).when(revoke).then([revoked]);
    given(staffDecider, [registered, revoked]).when(revoke).thenNothing();
    given(staffDecider, []).when(revoke).thenThrows(StaffMemberNotFound);
  });
});
