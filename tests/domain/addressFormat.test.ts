import { describe, expect, it } from 'vitest';
import {
  addressLines,
  placeLines,
  streetLine,
  townLines,
  type FormattableAddress,
} from '../../engine/domain/addressFormat';

function makeAddress(overrides: Partial<FormattableAddress> = {}): FormattableAddress {
  return {
    firstName: 'Sam',
    lastName1: 'Taylor',
    street: 'Rosebery Avenue',
    streetNumber: '14',
    zipcode: 'EC1R 4TD',
    city: 'London',
    countryCode: 'GB',
    ...overrides,
  };
}

describe('addressLines', () => {
  it('writes a UK address with the number before the street and the postcode on its own line after the town', () => {
    expect(addressLines(makeAddress())).toEqual(['Sam Taylor', '14 Rosebery Avenue', 'London', 'EC1R 4TD']);
  });

  it('writes a German address with the number after the street and the postcode before the town', () => {
    expect(
      addressLines(
        makeAddress({
          street: 'Hauptstraße',
          streetNumber: '5',
          streetNumberSuffix: 'a',
          zipcode: '10115',
          city: 'Berlin',
          countryCode: 'DE',
        }),
      ),
    ).toEqual(['Sam Taylor', 'Hauptstraße 5a', '10115 Berlin']);
  });

  it('keeps the German order for other continental countries', () => {
    expect(townLines(makeAddress({ zipcode: '1010', city: 'Wien', countryCode: 'AT' }))).toEqual([
      '1010 Wien',
    ]);
  });

  it('reads the country code in any case', () => {
    expect(streetLine(makeAddress({ countryCode: 'gb' }))).toBe('14 Rosebery Avenue');
  });

  it('tells a UK address by its postcode when no country is on record', () => {
    expect(addressLines(makeAddress({ countryCode: null }))).toEqual([
      'Sam Taylor',
      '14 Rosebery Avenue',
      'London',
      'EC1R 4TD',
    ]);
    expect(townLines(makeAddress({ countryCode: null, zipcode: '80331', city: 'München' }))).toEqual([
      '80331 München',
    ]);
  });

  it('keeps the company and free address lines and leaves out empty parts', () => {
    expect(
      addressLines(
        makeAddress({
          firstName: null,
          lastName1: null,
          company1: 'Wagner & Partner GmbH',
          addressLine1: 'Flat 2',
          street: ' ',
          streetNumber: null,
          city: '',
        }),
      ),
    ).toEqual(['Wagner & Partner GmbH', 'Flat 2', 'EC1R 4TD']);
  });

  it('gives where an address is without the name: its lines, street, town and postcode (placeLines)', () => {
    expect(
      placeLines(
        makeAddress({
          addressLine1: '27 Castle Street',
          addressLine2: 'Flat 2',
          street: null,
          streetNumber: null,
        }),
      ),
    ).toEqual(['27 Castle Street', 'Flat 2', 'London', 'EC1R 4TD']);
  });

  it('gives no lines for no address', () => {
    expect(addressLines(null)).toEqual([]);
  });
});
