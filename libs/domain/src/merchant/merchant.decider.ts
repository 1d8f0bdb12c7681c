import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { Mode } from '../mode/mode';

/** Credentials never appear here: the event log records that a secret changed, never the secret. */
export type MerchantEvent =
  /**
   * A tenant: one mode of an owner, whose other mode is its twin. Registrations from before tenants had
   * a mode carry neither: the read path gives them the deployment's legacy mode (registrationMode).
   */
  | { type: 'MerchantRegistered'; data: { merchantId: string; name: string; registeredAt: string; mode?: Mode; twinId?: string } }
  /** A tenant registered before modes gets its other mode: `twinId`, registered in that mode. */
  | { type: 'MerchantTwinOpened'; data: { merchantId: string; twinId: string; openedAt: string } }
  | { type: 'MerchantApiSecretRotated'; data: { merchantId: string; rotatedAt: string } }
  | { type: 'MerchantWebhookSecretRotated'; data: { merchantId: string; rotatedAt: string } }
  /** A new dashboard invitation for the owner (its e-mail and token are credentials, kept out of the log). */
  | { type: 'MerchantOwnerInvited'; data: { merchantId: string; invitedAt: string } };

export type MerchantCommand =
  | { type: 'RegisterMerchant'; data: { merchantId: string; name: string; at: string; mode: Mode; twinId?: string } }
  | { type: 'OpenTwin'; data: { twinId: string; at: string } }
  | { type: 'RotateApiSecret'; data: { at: string } }
  | { type: 'RotateWebhookSecret'; data: { at: string } }
  | { type: 'InviteOwner'; data: { at: string } };

export interface MerchantState {
  merchantId?: string;
  name?: string;
  /** Undefined for a tenant registered before modes: the legacy mode (registrationMode). */
  mode?: Mode;
  twinId?: string;
}

/** The upcaster of a registration: one from before modes is in the mode the deployment decided for its history. */
export const registrationMode = (data: { mode?: Mode }, legacyMode: Mode): Mode => data.mode ?? legacyMode;

/** Opening the other mode of a merchant that has both (registered since modes, or opened before). */
export class MerchantHasTwin extends DomainError {
  constructor(merchantId: string, twinId: string) {
    super('MERCHANT_HAS_OTHER_MODE', `Merchant ${merchantId} already has its other mode: ${twinId}`, 'conflict');
  }
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
    const { merchantId, name, at, mode, twinId } = command.data;
    return [{ type: 'MerchantRegistered', data: { merchantId, name, registeredAt: at, mode, ...(twinId ? { twinId } : {}) } }];
  }
  if (!state.merchantId) throw new MerchantNotFound('unknown');
  if (command.type === 'OpenTwin') {
    if (state.twinId) throw new MerchantHasTwin(state.merchantId, state.twinId);
    return [{ type: 'MerchantTwinOpened', data: { merchantId: state.merchantId, twinId: command.data.twinId, openedAt: command.data.at } }];
  }
  if (command.type === 'InviteOwner') return [{ type: 'MerchantOwnerInvited', data: { merchantId: state.merchantId, invitedAt: command.data.at } }];
  const type = command.type === 'RotateApiSecret' ? 'MerchantApiSecretRotated' : 'MerchantWebhookSecretRotated';
  return [{ type, data: { merchantId: state.merchantId, rotatedAt: command.data.at } }];
}

function evolve(state: MerchantState, event: MerchantEvent): MerchantState {
  if (event.type === 'MerchantRegistered') return { merchantId: event.data.merchantId, name: event.data.name, mode: event.data.mode, twinId: event.data.twinId };
  return event.type === 'MerchantTwinOpened' ? { ...state, twinId: event.data.twinId } : state;
}

export const merchantDecider: Decider<MerchantCommand, MerchantEvent, MerchantState> = {
  initialState: () => ({}),
  evolve,
  decide,
};
