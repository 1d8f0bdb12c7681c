import { type EscrowCommand, EscrowNotFound, type EscrowState } from '@app/domain';

/** Another merchant's escrow is, to this merchant, an escrow that does not exist. */
export function ownedBy(merchantId: string, escrowId: string, command: (state: EscrowState) => EscrowCommand) {
  return (state: EscrowState): EscrowCommand => {
    if (!state.created || state.created.merchantId !== merchantId) throw new EscrowNotFound(escrowId);
    return command(state);
  };
}
