/** Test numbers of the sandbox provider (documented in docs/guides/escrows.md). */
export const SANDBOX_PHONES = {
  succeeds: '+251900000000',
  insufficientFunds: '+251900000001',
  neverAnswers: '+251900000002',
  asksForOtp: '+251900000003',
  refundsRejected: '+251900000009',
} as const;

/** The one-time code the sandbox accepts for the OTP test number. */
export const SANDBOX_OTP = '123456';

/** Test accounts of the sandbox's transfers (docs/guides/payouts-and-statements.md): any other account is paid. */
export const SANDBOX_TRANSFER_ACCOUNTS = {
  /** Refused at once: the provider cannot pay it. */
  refused: '1000000001',
  /** Taken, then reported failed: the money came back. */
  bounces: '1000000002',
} as const;
