/** Test numbers of the sandbox provider (documented in the README). */
export const SANDBOX_PHONES = {
  succeeds: '+251900000000',
  insufficientFunds: '+251900000001',
  neverAnswers: '+251900000002',
  asksForOtp: '+251900000003',
  refundsRejected: '+251900000009',
} as const;

/** The one-time code the sandbox accepts for the OTP test number. */
export const SANDBOX_OTP = '123456';
