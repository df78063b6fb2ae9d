import { maskEmail } from './fieldRules';
/**
 * Bank account rules of the payment-details screen and the server (account-flows.md §5 "SEPA: holder
 * and IBAN required; IBAN mask: 2 letters, 2 digits, then groups of four"; and a real mod-97
 * checksum and the country's length, so a mistyped IBAN is caught here, not by the bank).
 */

/** IBAN lengths by country (SEPA countries and the UK). */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** Without spaces, upper case. */
export const normalizeIban = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/**
 * §5's mask: 2 letters, 2 digits, then groups of four (the last group may be shorter). It groups
 * what was typed and drops nothing; what does not fit the mask is said at the field
 * (ibanMaskProblem). Grouped by characters, not UTF-16 units, so no emoji is split in two.
 */
export function formatIban(value: string): string {
  return normalizeIban(value).replace(/(.{4})(?=.)/gu, '$1 ');
}

/** ISO 13616: no IBAN is longer. */
export const IBAN_MAX_LENGTH = 34;

/** The characters typed into an IBAN that no IBAN has (anything but letters A–Z, digits and spaces), each once. */
export function ibanForeignCharacters(value: string): string[] {
  return [...new Set(Array.from(value).filter((char) => !/^[A-Za-z0-9\s]$/.test(char)))];
}

export type IbanMaskProblem = 'characters' | 'format' | 'too_long';

/**
 * What breaks §5's mask while an IBAN is being typed, or null: a character no IBAN has, a start
 * other than two letters and two digits (as far as typed), more characters than an IBAN of its
 * country (else any IBAN) has. Shown at the field as it is typed; country, length and checksum
 * of a complete IBAN are ibanProblem's, on submit.
 */
export function ibanMaskProblem(value: string): IbanMaskProblem | null {
  if (ibanForeignCharacters(value).length > 0) return 'characters';
  const iban = normalizeIban(value);
  if (!/^[A-Z]{0,2}$/.test(iban.slice(0, 2)) || !/^\d{0,2}$/.test(iban.slice(2, 4))) return 'format';
  if (iban.length > ibanMaxLength(iban)) return 'too_long';
  return null;
}

/** The most characters an IBAN starting like this may have: its country's length, else 34. */
export const ibanMaxLength = (value: string) =>
  IBAN_LENGTHS[normalizeIban(value).slice(0, 2)] ?? IBAN_MAX_LENGTH;

export type IbanProblem = 'required' | 'format' | 'country' | 'length' | 'checksum';

/** Why an IBAN is not valid, or null: shape, known country, that country's length, and ISO 7064 mod 97 = 1. */
export function ibanProblem(value: string): IbanProblem | null {
  const iban = normalizeIban(value);
  if (!iban) return 'required';
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return 'format';
  const length = IBAN_LENGTHS[iban.slice(0, 2)];
  if (!length) return 'country';
  if (iban.length !== length) return 'length';
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1 ? null : 'checksum';
}

export const isValidIban = (value: string) => ibanProblem(value) === null;

/** BIC: 4 letters bank, 2 letters country, 2 letters/digits location, optional 3 branch. Optional field. */
export const isValidBic = (value: string) =>
  /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value.replace(/\s+/g, '').toUpperCase());

/**
 * An account shown back: an IBAN keeps its country and its last four characters; any other number
 * only its last two (a short account number would otherwise be nearly whole).
 */
export function maskAccount(value: string): string {
  const plain = normalizeIban(value);
  if (/^[A-Z]{2}\d{2}/.test(plain) && plain.length > 8)
    return `${plain.slice(0, 2)}${'•'.repeat(plain.length - 6)}${plain.slice(-4)}`;
  return `${'•'.repeat(Math.max(4, plain.length - 2))}${plain.slice(-2)}`;
}

/**
 * An account shown back or kept (account-flows.md §3 "Payment details"): its IBAN and account
 * number masked (maskAccount), a card number to its last four digits, a PayPal address as an
 * e-mail is masked (maskEmail); the rest as it is. A value masked already stays as it is, so
 * whatever the order system sends back reaches a screen masked.
 */
export function maskBankAccount<
  T extends { iban?: unknown; debitAccountNumber?: unknown; ccNumber?: unknown; paypalEmail?: unknown },
>(account: T): T {
  const unmasked = (value: unknown): value is string =>
    typeof value === 'string' && value !== '' && !value.includes('•') && !value.includes('*');
  const mask = (value: unknown) => (unmasked(value) ? maskAccount(value) : value);
  const card = (value: unknown) =>
    unmasked(value) ? `•••• ${value.replace(/[^0-9A-Za-z]/g, '').slice(-4)}` : value;
  const paypal = (value: unknown) => (unmasked(value) ? maskEmail(value) : value);
  return {
    ...account,
    ...('iban' in account ? { iban: mask(account.iban) } : {}),
    ...('debitAccountNumber' in account ? { debitAccountNumber: mask(account.debitAccountNumber) } : {}),
    ...('ccNumber' in account ? { ccNumber: card(account.ccNumber) } : {}),
    ...('paypalEmail' in account ? { paypalEmail: paypal(account.paypalEmail) } : {}),
  };
}
