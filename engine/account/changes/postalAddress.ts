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
 * The form's values of an address (missing fields empty). With `addressLines`, an address on record
 * as street and number only opens with them as its first line, so the form shows the address it has.
 */
export function postalValuesOf(
  address: Partial<Record<PostalField, string | null>> | null | undefined,
  addressLines = false,
): PostalValues {
  const values = Object.fromEntries(
    POSTAL_FIELDS.map((field) => [field, address?.[field] ?? '']),
  ) as PostalValues;
  if (addressLines && !LINE_FIELDS.some((field) => values[field].trim()) && values.street.trim()) {
    // As the address is written for its country ("14 Rosebery Avenue", "Hauptstraße 5a"), so that
    // saving a change elsewhere in the form does not turn the first line around.
    values.addressLine1 = streetLine(values);
  }
  return values;
}

/**
 * The address the server takes: trimmed, empty fields null, and either the address lines or street
 * and number — whichever the tenant's `address-lines` feature asks for (§5); the other kind is sent
 * empty, so an address keeps one form (no street left behind next to the lines that replaced it).
 */
export function postalAddressOf(values: PostalValues, addressLines: boolean): PostalAddress {
  const unused = addressLines ? STREET_FIELDS : LINE_FIELDS;
  return Object.fromEntries(
    POSTAL_FIELDS.map((field) => [field, unused.includes(field) ? null : values[field].trim() || null]),
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
