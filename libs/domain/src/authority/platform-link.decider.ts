import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';

/**
 * Who decided a link: the linked merchant with its own key, or the operator with the admin key. A
 * platform never links a merchant to itself: naming a merchant's id gives it no authority over it.
 */
export type LinkDecidedBy = 'merchant' | 'operator';

/**
 * A registered merchant's consent that a platform may move its money (debit and credit it; never
 * redirect its payouts, secrets or endpoints: docs/concepts/authority.md). One stream per merchant and
 * platform (streams.platformLink(platformLinkKey(…))), so asking whether a link stands reads one short stream.
 */
export type PlatformLinkEvent =
  | { type: 'PlatformLinked'; data: { merchantId: string; platformId: string; decidedBy: LinkDecidedBy; linkedAt: string } }
  | { type: 'PlatformLinkRevoked'; data: { merchantId: string; platformId: string; decidedBy: LinkDecidedBy; revokedAt: string } };

export type PlatformLinkCommand =
  | { type: 'LinkPlatform'; data: { merchantId: string; platformId: string; decidedBy: LinkDecidedBy; at: string } }
  | { type: 'RevokePlatformLink'; data: { merchantId: string; platformId: string; decidedBy: LinkDecidedBy; at: string } };

export interface PlatformLinkState {
  link?: { merchantId: string; platformId: string; linked: boolean; decidedBy: LinkDecidedBy; since: string };
}

/** The stream key of the link between a merchant and a platform. */
export const platformLinkKey = (merchantId: string, platformId: string): string => `${merchantId}.${platformId}`;

export class PlatformLinkToItself extends DomainError {
  constructor() {
    super('PLATFORM_LINK_TO_ITSELF', 'A merchant cannot link itself as its own platform: it moves its own money already', 'invalid');
  }
}

export class PlatformLinkNotFound extends DomainError {
  constructor(merchantId: string, platformId: string) {
    super('PLATFORM_LINK_NOT_FOUND', `${merchantId} has no link to the platform ${platformId}`, 'not_found');
  }
}

function decide(command: PlatformLinkCommand, state: PlatformLinkState): PlatformLinkEvent[] {
  const { merchantId, platformId, decidedBy, at } = command.data;
  if (merchantId === platformId) throw new PlatformLinkToItself();
  const linked = state.link?.linked === true;
  if (command.type === 'LinkPlatform') return linked ? [] : [{ type: 'PlatformLinked', data: { merchantId, platformId, decidedBy, linkedAt: at } }];
  if (!linked) throw new PlatformLinkNotFound(merchantId, platformId);
  return [{ type: 'PlatformLinkRevoked', data: { merchantId, platformId, decidedBy, revokedAt: at } }];
}

function evolve(state: PlatformLinkState, event: PlatformLinkEvent): PlatformLinkState {
  const { merchantId, platformId, decidedBy } = event.data;
  return event.type === 'PlatformLinked'
    ? { link: { merchantId, platformId, linked: true, decidedBy, since: event.data.linkedAt } }
    : { link: { merchantId, platformId, linked: false, decidedBy, since: event.data.revokedAt } };
}

export const platformLinkDecider: Decider<PlatformLinkCommand, PlatformLinkEvent, PlatformLinkState> = {
  initialState: () => ({}),
  evolve,
  decide,
};
