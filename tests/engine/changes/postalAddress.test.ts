/**
 * The address form's values (engine/account/changes/postalAddress.ts): with the tenant's
 * `address-lines`, an address on record as street and number opens as its first line, written as
 * its country writes it, so saving a change elsewhere in the form keeps the line as it was shown.
 */
import { describe, expect, it } from 'vitest';
import { postalAddressOf, postalValuesOf } from '../../../engine/account/changes/postalAddress';

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

describe('an address saved with a change elsewhere in the form keeps every part it had', () => {
  const company = {
    company1: 'Harbourside Consulting Ltd',
    addressLine1: 'Priya Patel',
    street: 'Portland Street',
    streetNumber: '81',
    zipcode: 'M1 4QX',
    city: 'Manchester',
    countryCode: 'GB',
  };

  it('shows a street beside a c/o line as the next line, and sends it there, no street left behind', () => {
    const values = postalValuesOf(company, true);
    expect([values.addressLine1, values.addressLine2, values.addressLine3]).toEqual([
      'Priya Patel',
      '81 Portland Street',
      '',
    ]);
    expect(postalAddressOf(values)).toMatchObject({
      addressLine1: 'Priya Patel',
      addressLine2: '81 Portland Street',
      street: null,
      streetNumber: null,
      city: 'Manchester',
    });
  });

  it('keeps a street it cannot show when all three lines are taken', () => {
    const full = { ...company, addressLine2: 'Floor 4', addressLine3: 'Suite 12' };
    expect(postalAddressOf(postalValuesOf(full, true))).toMatchObject({
      addressLine3: 'Suite 12',
      street: 'Portland Street',
      streetNumber: '81',
    });
  });

  it('keeps the lines on record without address lines, which the form does not show', () => {
    expect(postalAddressOf(postalValuesOf(company, false))).toMatchObject({
      addressLine1: 'Priya Patel',
      street: 'Portland Street',
      streetNumber: '81',
    });
  });
});
