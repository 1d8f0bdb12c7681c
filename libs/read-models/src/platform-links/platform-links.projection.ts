import { fold, type PlatformLinkEvent, platformLinkDecider, type PlatformLinkState, streamKind } from '@app/domain';
import { foldedView } from '../projector/folded-view.projection';

/**
 * A row per merchant and platform a link was ever decided for, as it stands now (linked, or revoked):
 * the lists of a merchant's links and of a platform's linked merchants read it (platform-links.reader.ts).
 * Whether a link stands for a debit or a credit is read from its stream, never from here
 * (libs/onboarding/src/authority/party-relations.ts). Only the projector writes it.
 */
export const platformLinksView = foldedView<PlatformLinkState>({
  name: 'platform_links_view',
  version: 1,
  table: 'platform_links_view',
  key: 'link_key',
  columns: ['link_key', 'merchant_id', 'platform_id', 'linked', 'decided_by', 'since', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'platformLink',
  fold: (_streamId, history) => fold(platformLinkDecider, history as unknown as PlatformLinkEvent[]),
  row: (_streamId, { link }) =>
    link && {
      link_key: `${link.merchantId}.${link.platformId}`,
      merchant_id: link.merchantId,
      platform_id: link.platformId,
      linked: link.linked,
      decided_by: link.decidedBy,
      since: link.since,
    },
});
