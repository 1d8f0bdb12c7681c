import type { PaymentMethod } from '../payment-provider.port';

/**
 * The wallets Chapa's Direct Charge takes (`POST /v1/charges?type=<id>`), as its documentation lists
 * them: https://developer.chapa.co/charge/initiate-payments. Which of them ask for a one-time code
 * is what the charge's answer says (`auth_type`: `ussd` or `otp`,
 * https://developer.chapa.co/charge/authorize-payments); the flag here is what the checkout expects
 * beforehand, and the answer decides.
 */
export const CHAPA_METHODS: readonly PaymentMethod[] = [
  { id: 'telebirr', name: 'telebirr', otpRequired: false },
  { id: 'mpesa', name: 'M-Pesa', otpRequired: false },
  { id: 'cbebirr', name: 'CBE Birr', otpRequired: false },
  { id: 'ebirr', name: 'Coopay-Ebirr', otpRequired: false },
  { id: 'awashbirr', name: 'Awash Birr', otpRequired: false },
  { id: 'amole', name: 'Amole', otpRequired: true },
];
