import { createCipheriv } from 'node:crypto';

/**
 * A one-time code travels encrypted: the JSON of `{requestID, otp}`, 3DES (ECB, PKCS#7 padding)
 * under the account's 24-character encryption key, in base64, sent as `client`
 * (https://developer.chapa.co/charge/encryption).
 */
export function encryptForChapa(encryptionKey: string, payload: Record<string, string>): string {
  const cipher = createCipheriv('des-ede3', Buffer.from(encryptionKey, 'utf8'), null);
  return Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]).toString('base64');
}
