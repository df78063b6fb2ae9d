/**
 * The address form's values (engine/account/changes/postalAddress.ts): with the tenant's
 * `address-lines`, an address on record as street and number opens as its first line, written as
 * its country writes it, so saving a change elsewhere in the form keeps the line as it was shown.
 */
import { describe, expect, it } from 'vitest';
import { postalValuesOf } from '../../../engine/account/changes/postalAddress';

describe('an address on record as street and number, opened with address lines', () => {
  it('opens as its country writes the street line', () => {
    const uk = {
      street: 'Rosebery Avenue',
      streetNumber: '14',
      zipcode: 'EC1R 4TD',
      city: 'London',
      countryCode: 'GB',
    };
    expect(postalValuesOf(uk, true).addressLine1).toBe('14 Rosebery Avenue');
    const de = {
      street: 'Hauptstraße',
      streetNumber: '5',
      streetNumberSuffix: 'a',
      zipcode: '10115',
      countryCode: 'DE',
    };
    expect(postalValuesOf(de, true).addressLine1).toBe('Hauptstraße 5a');
  });

  it('keeps lines on record as they are, and street and number without address lines', () => {
    const lines = { addressLine1: 'Flat 3', street: 'Castle Street', streetNumber: '27', countryCode: 'GB' };
    expect(postalValuesOf(lines, true).addressLine1).toBe('Flat 3');
    expect(
      postalValuesOf({ street: 'Castle Street', streetNumber: '27', countryCode: 'GB' }).addressLine1,
    ).toBe('');
  });
});
