/** The Chapa account's keys the end-to-end tests configure, on the service and on the project's Chapa simulator alike (a test-mode secret key, as Chapa issues them). */
export const CHAPA_KEYS = {
  CHAPA_SECRET_KEY: 'CHASECK_TEST-e2eSecretKeyOfTheAccount',
  CHAPA_ENCRYPTION_KEY: 'E2eEncryptionKey24Chars!',
  CHAPA_WEBHOOK_SECRET: 'e2e-webhook-secret-hash',
};
