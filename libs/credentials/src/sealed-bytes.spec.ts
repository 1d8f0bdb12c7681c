import { randomBytes } from 'node:crypto';
import { openBytes, sealBytes } from './secrets';

describe('sealed bytes (an account document at rest)', () => {
  const key = randomBytes(32);
  const plain = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2048)]);
  const context = 'account-document:acct_1:doc_1';

  it('opens to the bytes sealed, and holds none of them in the clear', () => {
    const sealed = sealBytes(key, plain, context);
    expect(sealed.includes(plain.subarray(0, 32))).toBe(false);
    expect(openBytes(key, sealed, context).equals(plain)).toBe(true);
    // A fresh IV each time: the same document sealed twice does not look the same.
    expect(sealBytes(key, plain, context).equals(sealed)).toBe(false);
  });

  it('refuses to open under another key, for another record, or after a byte changed', () => {
    const sealed = sealBytes(key, plain, context);
    expect(() => openBytes(randomBytes(32), sealed, context)).toThrow();
    expect(() => openBytes(key, sealed, 'account-document:acct_2:doc_1')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => openBytes(key, tampered, context)).toThrow();
  });
});
