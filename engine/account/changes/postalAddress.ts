import type { PostalAddress } from '../../../schemas/generated/account-changes';
import { addressLines, streetLine } from '../../domain/addressFormat';
import { ADDRESS_LIMITS, type AddressError, type AddressField } from '../../domain/addressRules';

/** The fields of a postal address (account-flows.md §3 business partner), in form order. */
export const POSTAL_FIELDS = [
  'salutationCode',
  'firstName',
  'lastName1',
  'company1',
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'street',
  'streetNumber',
  'streetNumberSuffix',
  'zipcode',
  'city',
  'countryCode',
] as const satisfies readonly (keyof PostalAddress & AddressField)[];
export type PostalField = (typeof POSTAL_FIELDS)[number];

/**
 * A partner's organisation beside its postal address (account-flows.md §3 business partner,
 * §5 "job title, company, department max 35"): the address form of a partner shows them; a holiday
 * redirect's target address has none.
 */
export const ORGANISATION_FIELDS = [
  'company2',
  'jobTitle',
  'department',
] as const satisfies readonly AddressField[];
export type OrganisationField = (typeof ORGANISATION_FIELDS)[number];
export type PostalValues = Record<PostalField, string>;

const LINE_FIELDS: readonly PostalField[] = ['addressLine1', 'addressLine2', 'addressLine3'];
const STREET_FIELDS: readonly PostalField[] = ['street', 'streetNumber', 'streetNumberSuffix'];

/**
 * The form's values of an address (missing fields empty). With `addressLines` the form shows the
 * address lines and no street fields, so a street on record goes into the first line after the
 * lines it has, written as its country writes it ("14 Rosebery Avenue", "Hauptstraße 5a"): the form
 * shows the whole address, and saving a change elsewhere in it neither turns the line around nor
 * drops the street (a c/o line on record with a street beside it lost the street). Only when all
 * three lines are taken does the street stay in its own fields, unseen but kept.
 */
export function postalValuesOf(
  address: Partial<Record<PostalField, string | null>> | null | undefined,
  addressLines = false,
): PostalValues {
  const values = Object.fromEntries(
    POSTAL_FIELDS.map((field) => [field, address?.[field] ?? '']),
  ) as PostalValues;
  if (!addressLines || !values.street.trim()) return values;
  const lastTaken = LINE_FIELDS.reduce((last, field, i) => (values[field].trim() ? i : last), -1);
  if (lastTaken + 1 >= LINE_FIELDS.length) return values;
  values[LINE_FIELDS[lastTaken + 1]] = streetLine(values);
  for (const field of STREET_FIELDS) values[field] = '';
  return values;
}

/**
 * The address the server takes: trimmed, empty fields null. The fields the form does not show
 * (the lines without `address-lines`, the street with it, §5) go back as they were loaded, so an
 * address keeps what the order system sent there; a street the form moved into a line
 * (postalValuesOf) goes back empty, so no street is left behind next to the line that replaced it.
 */
export function postalAddressOf(values: PostalValues): PostalAddress {
  return Object.fromEntries(
    POSTAL_FIELDS.map((field) => [field, values[field].trim() || null]),
  ) as PostalAddress;
}

/** The limit a too_long or too_short error speaks of (§9). */
export function addressLimit(field: AddressField, code: AddressError['code']): number | undefined {
  if (code === 'too_short') return ADDRESS_LIMITS.zipMin;
  if (code !== 'too_long') return undefined;
  switch (field) {
    case 'streetNumber':
    case 'streetNumberSuffix':
      return ADDRESS_LIMITS.streetNumber;
    case 'zipcode':
      return ADDRESS_LIMITS.zipMax;
    case 'emailAddress':
      return ADDRESS_LIMITS.email;
    case 'phoneNumber':
      return ADDRESS_LIMITS.phone;
    default:
      return ADDRESS_LIMITS.name;
  }
}

/** One line per part of an address, for showing it, in its country's order (engine/domain/addressFormat.ts). */
export function postalLines(address: Partial<PostalAddress> | null | undefined): string[] {
  return addressLines(address);
}
