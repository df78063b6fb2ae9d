import { isUkPostcode } from './addressRules';

/** The parts of a postal address the formatter reads (subscription, order, partner and form shapes all fit). */
export interface FormattableAddress {
  firstName?: string | null;
  lastName1?: string | null;
  company1?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  addressLine3?: string | null;
  street?: string | null;
  streetNumber?: string | null;
  streetNumberSuffix?: string | null;
  zipcode?: string | null;
  city?: string | null;
  countryCode?: string | null;
}

/**
 * How a country writes the street and the town (Universal Postal Union address formats): the
 * number before the street and the postcode on its own line after the town in the UK and Ireland
 * ("14 Rosebery Avenue", "London", "EC1R 4TD"); the German order elsewhere ("Hauptstraße 5",
 * "10115 Berlin").
 */
type Layout = 'number-first-postcode-last' | 'street-first-postcode-before-town';

const LAYOUTS: Record<string, Layout> = {
  GB: 'number-first-postcode-last',
  IE: 'number-first-postcode-last',
};

/** The layout of an address: by its country, else (no country on record) a UK postcode tells a UK address. */
function layoutOf(address: FormattableAddress): Layout {
  const country = address.countryCode?.trim().toUpperCase();
  if (country) return LAYOUTS[country] ?? 'street-first-postcode-before-town';
  return address.zipcode && isUkPostcode(address.zipcode)
    ? 'number-first-postcode-last'
    : 'street-first-postcode-before-town';
}

const join = (parts: ReadonlyArray<string | null | undefined>, separator = ' ') =>
  parts
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(separator);

/** The street line without name or town ("14 Rosebery Avenue" in the UK, "Hauptstraße 5a" in Germany). */
export function streetLine(address: FormattableAddress): string {
  const number = join([address.streetNumber, address.streetNumberSuffix], '');
  return layoutOf(address) === 'number-first-postcode-last'
    ? join([number, address.street])
    : join([address.street, number]);
}

/** The lines after the street: town then postcode alone in the UK ("London", "EC1R 4TD"), "10115 Berlin" elsewhere. */
export function townLines(address: FormattableAddress): string[] {
  const lines =
    layoutOf(address) === 'number-first-postcode-last'
      ? [join([address.city]), join([address.zipcode])]
      : [join([address.zipcode, address.city])];
  return lines.filter((line) => line !== '');
}

/**
 * Where an address is, line by line, without the name: the free address lines (a tenant with the
 * address-lines feature keeps an address as lines, with no street), the street, town and postcode.
 * Every screen that shows an address shows these, so an address reads the same everywhere.
 */
export function placeLines(address: FormattableAddress): string[] {
  return [
    join([address.addressLine1]),
    join([address.addressLine2]),
    join([address.addressLine3]),
    streetLine(address),
    ...townLines(address),
  ].filter((line) => line !== '');
}

/**
 * An address line by line as its country writes it: name, company, then placeLines (the country's
 * name is the caller's, in the screen's language).
 */
export function addressLines(address: FormattableAddress | null | undefined): string[] {
  if (!address) return [];
  return [
    join([address.firstName, address.lastName1]),
    join([address.company1]),
    ...placeLines(address),
  ].filter((line) => line !== '');
}
