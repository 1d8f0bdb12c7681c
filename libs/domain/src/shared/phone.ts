import { InvalidInput } from './domain-error';

/** Ethiopian mobile numbers: 9… (Ethio Telecom) and 7… (Safaricom), eight digits after the prefix. */
const ETHIOPIAN_MOBILE = /^(?:\+?251|0)([79]\d{8})$/;

/** Normalises the common local and international forms to E.164 (`+2519XXXXXXXX`). */
export function normalisePhone(value: string, field = 'customerPhoneNumber'): string {
  const compact = value.replace(/[\s\-()]/g, '');
  const match = ETHIOPIAN_MOBILE.exec(compact);
  if (!match) {
    throw new InvalidInput(`${field} must be an Ethiopian mobile number such as 0911234567 or +251911234567`);
  }
  return `+251${match[1]}`;
}

/** What a customer sees of a number on a public page: `+251 9** *** 567`. */
export function maskPhone(e164: string): string {
  const local = e164.slice(4);
  return `+251 ${local[0]}** *** ${local.slice(-3)}`;
}
