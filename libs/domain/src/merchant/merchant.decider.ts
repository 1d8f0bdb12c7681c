import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';

/** Credentials never appear here: the event log records that a secret changed, never the secret. */
export type MerchantEvent =
  | { type: 'MerchantRegistered'; data: { merchantId: string; name: string; registeredAt: string } }
  | { type: 'MerchantApiSecretRotated'; data: { merchantId: string; rotatedAt: string } }
  | { type: 'MerchantWebhookSecretRotated'; data: { merchantId: string; rotatedAt: string } }
  /** A new dashboard invitation for the owner (its e-mail and token are credentials, kept out of the log). */
  | { type: 'MerchantOwnerInvited'; data: { merchantId: string; invitedAt: string } };

export type MerchantCommand =
  | { type: 'RegisterMerchant'; data: { merchantId: string; name: string; at: string } }
  | { type: 'RotateApiSecret'; data: { at: string } }
  | { type: 'RotateWebhookSecret'; data: { at: string } }
  | { type: 'InviteOwner'; data: { at: string } };

export interface MerchantState {
  merchantId?: string;
  name?: string;
}

export class MerchantNotFound extends DomainError {
  constructor(merchantId: string) {
    super('ABC_001', `Merchant ${merchantId} was not found`, 'not_found');
  }
}

export class MerchantAlreadyRegistered extends DomainError {
  constructor(merchantId: string) {
    super('MERCHANT_ALREADY_REGISTERED', `Merchant ${merchantId} is already registered`, 'conflict');
  }
}

function decide(command: MerchantCommand, state: MerchantState): MerchantEvent[] {
  if (command.type === 'RegisterMerchant') {
    if (state.merchantId) throw new MerchantAlreadyRegistered(state.merchantId);
    const { merchantId, name, at } = command.data;
    return [{ type: 'MerchantRegistered', data: { merchantId, name, registeredAt: at } }];
  }
  if (!state.merchantId) throw new MerchantNotFound('unknown');
  if (command.type === 'InviteOwner') return [{ type: 'MerchantOwnerInvited', data: { merchantId: state.merchantId, invitedAt: command.data.at } }];
  const type = command.type === 'RotateApiSecret' ? 'MerchantApiSecretRotated' : 'MerchantWebhookSecretRotated';
  return [{ type, data: { merchantId: state.merchantId, rotatedAt: command.data.at } }];
}

function evolve(state: MerchantState, event: MerchantEvent): MerchantState {
  return event.type === 'MerchantRegistered' ? { merchantId: event.data.merchantId, name: event.data.name } : state;
}

export const merchantDecider: Decider<MerchantCommand, MerchantEvent, MerchantState> = {
  initialState: () => ({}),
  evolve,
  decide,
};
