/**
 * Address form rules shared by the address screen and the server (account-flows.md §5 "Address form",
 * §9: names and company max 35, street number and suffix max 10, zip min 4 max 10, UK postcode
 * pattern for GB (and the postcode's form in the other countries of the portal's subscribers),
 * date of birth at most 100 years back, valid-from at least tomorrow and, for the
 * subscription the change is made from, not after its end: subscriptionTerm.ts).
 */
import { AFTER_TERM_END, withinTerm, type TermEnd } from './subscriptionTerm';
import { FALLBACK_LOCALE, LOCALE_TABLE, localeData } from './locales';
import { isBlankText, isOneLineText, isPlausibleEmail, isPrintableOnLabel, textLength } from './fieldRules';

export const ADDRESS_LIMITS = {
  name: 35,
  streetNumber: 10,
  zipMin: 4,
  zipMax: 10,
  email: 35,
  phone: 35,
} as const;

/** The UK postcode (outward and inward code, one optional space); BFPO and GIR 0AA included. */
export const UK_POSTCODE = /^(GIR ?0AA|BFPO ?\d{1,4}|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})$/i;
export const isUkPostcode = (value: string) => UK_POSTCODE.test(value.trim());

/**
 * The form of a postcode by country, with an example the form's message gives. The spec names one:
 * "UK postcode pattern for country GB" (account-flows.md §5 "Address form"); every other country
 * keeps §9's length rule alone, "min 4 (5 not required), max 10" — also Germany, whose five digits
 * the order system checks against its own records (docs/architecture.md, where the spec's rules
 * pull apart).
 */
export const POSTCODES: Readonly<Record<string, { pattern: RegExp; example: string }>> = {
  GB: { pattern: UK_POSTCODE, example: 'SW1A 1AA' },
};

const postcodeForm = (countryCode: string | null | undefined) =>
  POSTCODES[(countryCode ?? '').trim().toUpperCase()];

/** Whether a postcode has its country's form (true where the portal knows none). */
export function hasPostcodeForm(value: string, countryCode: string | null | undefined): boolean {
  const form = postcodeForm(countryCode);
  return !form || form.pattern.test(value.trim());
}

/** An example of a postcode of the country, for the message of one that does not have its form. */
export const postcodeExample = (countryCode: string | null | undefined): string | undefined =>
  postcodeForm(countryCode)?.example;

/**
 * A postcode as the address of `countryCode` writes it: a UK postcode in capitals with one space
 * before its inward code ("eh23dz" → "EH2 3DZ", "bfpo 12" → "BFPO 12"), as Royal Mail prints it;
 * any other value as typed (trimmed).
 */
export function postcodeAsWritten(value: string, countryCode: string | null | undefined): string {
  const trimmed = value.trim();
  const compact = trimmed.replace(/\s+/g, '').toUpperCase();
  if ((countryCode ?? '').trim().toUpperCase() !== 'GB' || !isUkPostcode(compact)) return trimmed;
  if (compact.startsWith('BFPO')) return `BFPO ${compact.slice(4)}`;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

export interface AddressInput {
  salutationCode?: string | null;
  firstName?: string | null;
  lastName1?: string | null;
  company1?: string | null;
  company2?: string | null;
  jobTitle?: string | null;
  department?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  addressLine3?: string | null;
  street?: string | null;
  streetNumber?: string | null;
  streetNumberSuffix?: string | null;
  zipcode?: string | null;
  city?: string | null;
  countryCode?: string | null;
  emailAddress?: string | null;
  phoneNumber?: string | null;
  dateOfBirth?: string | null;
  validFrom?: string | null;
}

export interface AddressRuleContext {
  /** The tenant's address-lines feature: three lines instead of street and number. */
  addressLines: boolean;
  /** Salutation codes that are companies (company required). */
  companySalutations: readonly string[];
  /** E-mail required because the partner has one already (§5). */
  emailRequired: boolean;
  /** Today, 'YYYY-MM-DD'. */
  today: string;
  /** The last day of the subscription the change is made from (a dated change may not begin after it); none: no limit. */
  termEnd?: TermEnd;
  /**
   * The address as the order system has it, when the input changes one on record. A value left as
   * it is there is not judged by the limits and shapes, only by what is required: the order system
   * owns its record (an e-mail address of 37 characters, say), and a subscriber who changes the
   * city could otherwise never save, since the field is locked or may only become the same address.
   */
  onRecord?: AddressInput;
}

export type AddressField = keyof AddressInput;
export type AddressError = {
  field: AddressField;
  code:
    | 'required'
    | 'too_long'
    | 'too_short'
    | 'invalid'
    | 'one_line'
    | 'not_printable'
    | 'too_early'
    | typeof AFTER_TERM_END;
};

const blank = isBlankText;

/** Every §5 rule at once, field by field. */
export function addressErrors(input: AddressInput, ctx: AddressRuleContext): AddressError[] {
  const errors: AddressError[] = [];
  const keptFromRecord = (field: AddressField) =>
    ctx.onRecord !== undefined && (input[field] ?? '').trim() === (ctx.onRecord[field] ?? '').trim();
  const max = (field: AddressField, limit: number) => {
    const value = input[field];
    if (value && textLength(value) > limit && !keptFromRecord(field))
      errors.push({ field, code: 'too_long' });
  };
  const required = (field: AddressField) => {
    if (blank(input[field])) errors.push({ field, code: 'required' });
  };
  // Every text of the address is one line (fieldRules.ts isOneLineText), a changed one at least.
  // And printable on a delivery label (fieldRules.ts isPrintableOnLabel), a changed one at least.
  for (const [field, value] of Object.entries(input) as [AddressField, string | null | undefined][]) {
    if (typeof value !== 'string' || keptFromRecord(field)) continue;
    if (!isOneLineText(value)) errors.push({ field, code: 'one_line' });
    else if (!isPrintableOnLabel(value)) errors.push({ field, code: 'not_printable' });
  }
  for (const field of [
    'firstName',
    'lastName1',
    'company1',
    'company2',
    'jobTitle',
    'department',
    'city',
  ] as const)
    max(field, ADDRESS_LIMITS.name);
  if (input.salutationCode && ctx.companySalutations.includes(input.salutationCode)) required('company1');
  // Post needs someone to go to: a last name, or else a company (§5 requires the company for a
  // company's salutation; a person's address without a name reaches nobody). A record the order
  // system sent without either stays its own.
  else if (
    blank(input.lastName1) &&
    blank(input.company1) &&
    !(keptFromRecord('lastName1') && keptFromRecord('company1'))
  )
    errors.push({ field: 'lastName1', code: 'required' });
  // The tenant's address-lines feature decides which kind is required; both kinds keep their
  // limits whatever it says, so no value of the other kind reaches the order system longer.
  if (ctx.addressLines) required('addressLine1');
  else {
    required('street');
    required('streetNumber');
  }
  for (const field of ['addressLine1', 'addressLine2', 'addressLine3', 'street'] as const)
    max(field, ADDRESS_LIMITS.name);
  max('streetNumber', ADDRESS_LIMITS.streetNumber);
  max('streetNumberSuffix', ADDRESS_LIMITS.streetNumber);
  required('zipcode');
  const zip = (input.zipcode ?? '').trim();
  // A zip code kept from the record is judged again when the country changes (its form, POSTCODES).
  if (zip && !(keptFromRecord('zipcode') && keptFromRecord('countryCode'))) {
    if (zip.length < ADDRESS_LIMITS.zipMin) errors.push({ field: 'zipcode', code: 'too_short' });
    else if (zip.length > ADDRESS_LIMITS.zipMax) errors.push({ field: 'zipcode', code: 'too_long' });
    else if (!hasPostcodeForm(zip, input.countryCode)) errors.push({ field: 'zipcode', code: 'invalid' });
  }
  required('city');
  required('countryCode');
  if (ctx.emailRequired) required('emailAddress');
  max('emailAddress', ADDRESS_LIMITS.email);
  if (
    input.emailAddress &&
    input.emailAddress.trim() &&
    !keptFromRecord('emailAddress') &&
    !isPlausibleEmail(input.emailAddress.trim())
  )
    errors.push({ field: 'emailAddress', code: 'invalid' });
  max('phoneNumber', ADDRESS_LIMITS.phone);
  const phone = (input.phoneNumber ?? '').trim();
  if (phone && !keptFromRecord('phoneNumber') && !isPhoneNumber(phone))
    errors.push({ field: 'phoneNumber', code: 'invalid' });
  if (input.dateOfBirth && !keptFromRecord('dateOfBirth')) {
    if (!isRealDay(input.dateOfBirth)) errors.push({ field: 'dateOfBirth', code: 'invalid' });
    else if (input.dateOfBirth < earliestBirthDate(ctx.today) || input.dateOfBirth > ctx.today)
      errors.push({ field: 'dateOfBirth', code: 'invalid' });
  }
  if (input.validFrom && !isRealDay(input.validFrom)) errors.push({ field: 'validFrom', code: 'invalid' });
  else if (input.validFrom && input.validFrom <= ctx.today)
    errors.push({ field: 'validFrom', code: 'too_early' });
  else if (input.validFrom && !withinTerm(input.validFrom, ctx.termEnd ?? null))
    errors.push({ field: 'validFrom', code: AFTER_TERM_END });
  return errors;
}

/**
 * A phone number as people write one: digits with an optional leading +, plain spaces and the usual
 * separators ("+49 (0)30 123-456", "030/123456"), at least five digits; a word is no number to call.
 */
export function isPhoneNumber(value: string): boolean {
  const trimmed = value.trim();
  return /^\+?[\d ()/.-]+$/.test(trimmed) && (trimmed.match(/\d/g)?.length ?? 0) >= 5;
}

/** A 'YYYY-MM-DD' that names a day of the calendar (no 30 February), between 1900 and 2199. */
export function isRealDay(value: string): boolean {
  if (!/^(19|20|21)\d{2}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** §9 "Date of birth earliest: 100 years back". */
export function earliestBirthDate(today: string): string {
  return `${Number(today.slice(0, 4)) - 100}${today.slice(4)}`;
}

/**
 * Countries an address may be in, by role (account-flows.md §5 "Country list limited to those
 * supported for the subscription and role"): deliveries (WE) go to the publisher's delivery area
 * (the tenant locale's `deliveryCountries`, engine/domain/locales.ts), invoices and orders (RE, AG,
 * LV) may be addressed anywhere in Europe.
 */
const BILLING_COUNTRIES = [
  'AT',
  'BE',
  'CH',
  'CZ',
  'DE',
  'DK',
  'ES',
  'FI',
  'FR',
  'GB',
  'IE',
  'IT',
  'LU',
  'NL',
  'NO',
  'PL',
  'PT',
  'SE',
] as const;

export function supportedCountries(tenantLocale: string, roles: readonly string[]): string[] {
  const delivery = (localeData(tenantLocale) ?? LOCALE_TABLE[FALLBACK_LOCALE]).deliveryCountries;
  return roles.includes('WE') ? [...delivery] : [...new Set([...delivery, ...BILLING_COUNTRIES])];
}
