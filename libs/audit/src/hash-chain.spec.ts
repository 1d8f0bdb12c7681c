import { createHash } from 'node:crypto';
import { type ChainedEvent, eventHash, GENESIS_HASH } from './hash-chain';

const base: ChainedEvent = {
  streamId: 'escrow-esc_1',
  revision: 3n,
  type: 'AllocationReleased',
  data: { merchantId: 'seller-1', amount: 60050, at: '2024-05-01T10:00:00.000Z' },
  metadata: { correlationId: 'req-1', actor: { type: 'merchant', id: 'm_1' } },
  recordedAt: new Date('2024-05-01T10:00:00.123Z'),
};
const PREVIOUS = 'a'.repeat(64);

describe('eventHash', () => {
  it('is a SHA-256 hex digest, stable for the same input', () => {
    const hash = eventHash(base, PREVIOUS);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(eventHash({ ...base, data: { ...(base.data as object) }, recordedAt: new Date(base.recordedAt.getTime()) }, PREVIOUS)).toBe(hash);
  });

  it('is the digest of the canonical JSON of the event and the previous hash (docs/concepts/event-store-and-projections.md)', () => {
    const text = JSON.stringify({
      data: { amount: 60050, at: '2024-05-01T10:00:00.000Z', merchantId: 'seller-1' },
      metadata: { actor: { id: 'm_1', type: 'merchant' }, correlationId: 'req-1' },
      previousHash: PREVIOUS,
      recordedAt: '2024-05-01T10:00:00.123Z',
      revision: '3',
      streamId: 'escrow-esc_1',
      type: 'AllocationReleased',
    });
    expect(eventHash(base, PREVIOUS)).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('does not depend on the key order of data or metadata (jsonb returns keys in its own order)', () => {
    const reordered = {
      ...base,
      data: { at: '2024-05-01T10:00:00.000Z', amount: 60050, merchantId: 'seller-1' },
      metadata: { actor: { id: 'm_1', type: 'merchant' }, correlationId: 'req-1' },
    };
    expect(eventHash(reordered, PREVIOUS)).toBe(eventHash(base, PREVIOUS));
  });

  it.each<[string, Partial<ChainedEvent>]>([
    ['streamId', { streamId: 'escrow-esc_2' }],
    ['revision', { revision: 4n }],
    ['type', { type: 'EscrowFunded' }],
    ['data (a value)', { data: { merchantId: 'seller-1', amount: 60051, at: '2024-05-01T10:00:00.000Z' } }],
    ['data (a nested key added)', { data: { merchantId: 'seller-1', amount: 60050, at: '2024-05-01T10:00:00.000Z', extra: null } }],
    ['metadata', { metadata: { correlationId: 'req-2', actor: { type: 'merchant', id: 'm_1' } } }],
    ['recordedAt (by one millisecond)', { recordedAt: new Date('2024-05-01T10:00:00.124Z') }],
  ])('changes when %s changes', (_field, change) => {
    expect(eventHash({ ...base, ...change }, PREVIOUS)).not.toBe(eventHash(base, PREVIOUS));
  });

  it('changes when the previous hash changes, so every later link depends on every earlier event', () => {
    const first = eventHash({ ...base, revision: 0n }, GENESIS_HASH);
    const second = eventHash({ ...base, revision: 1n }, first);
    const editedFirst = eventHash({ ...base, revision: 0n, data: { amount: 1 } }, GENESIS_HASH);
    expect(eventHash({ ...base, revision: 1n }, editedFirst)).not.toBe(second);
    expect(eventHash(base, 'b'.repeat(64))).not.toBe(eventHash(base, PREVIOUS));
  });

  it('starts every stream at the genesis hash of 64 zeros', () => {
    expect(GENESIS_HASH).toBe('0'.repeat(64));
  });
});
