import { withLivemode } from './livemode';

describe('livemode on the merchant API answers', () => {
  it('marks the object answered, and each item of a page, but not the parts of one object', () => {
    expect(withLivemode({ escrowId: 'esc_1', allocations: [{ merchantId: 'acct_1' }] }, false)).toEqual({ escrowId: 'esc_1', allocations: [{ merchantId: 'acct_1' }], livemode: false });
    expect(withLivemode({ escrows: [{ escrowId: 'esc_1' }, { escrowId: 'esc_2' }], hasMore: false }, true)).toEqual({
      escrows: [
        { escrowId: 'esc_1', livemode: true },
        { escrowId: 'esc_2', livemode: true },
      ],
      hasMore: false,
      livemode: true,
    });
    expect(withLivemode([{ id: 'a' }, 'b'], false)).toEqual([{ id: 'a', livemode: false }, 'b']);
    expect(withLivemode(null, true)).toBeNull();
  });
});
