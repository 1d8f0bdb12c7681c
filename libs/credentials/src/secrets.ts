import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

import type { Mode } from '@app/domain';

/**
 * 256 bits of randomness: a fast hash is enough to store it, and lets a request find its merchant by index.
 * The prefix says the mode of the tenant it opens (`sk_test_…`, `sk_live_…`) for a person reading it; the
 * tenant, not the prefix, decides the request's mode, so keys issued before modes (`sk_…`) still work.
 */
export function generateApiSecret(mode?: Mode): string {
  return `sk_${modePart(mode)}${randomBytes(32).toString('base64url')}`;
}

export function generateWebhookSecret(mode?: Mode): string {
  return `whsec_${modePart(mode)}${randomBytes(32).toString('base64url')}`;
}

const modePart = (mode: Mode | undefined) => (mode ? `${mode}_` : '');

export function hashApiSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

const VERSION = 'v1';

/** AES-256-GCM: the tag makes a tampered ciphertext fail to decrypt instead of yielding a wrong secret. */
export function encryptSecret(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

export function decryptSecret(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || !body) throw new Error('unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

/**
 * AES-256-GCM over bytes (an uploaded document), as encryptSecret over text: a random IV, the context
 * as associated data, so sealed bytes moved to another record do not open there. Layout: IV (12), tag (16), body.
 */
export function sealBytes(key: Buffer, plain: Buffer, context: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function openBytes(key: Buffer, sealed: Buffer, context: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}
