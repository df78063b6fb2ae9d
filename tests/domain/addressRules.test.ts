import { describe, expect, it } from 'vitest';
import {
  addressErrors,
  isPhoneNumber,
  isUkPostcode,
  postcodeAsWritten,
  postcodeExample,
} from '../../engine/domain/addressRules';

const ctx = { addressLines: false, companySalutations: ['0003'], emailRequired: false, today: '2026-11-22' };
const valid = {
  salutationCode: '0001',
  firstName: 'Anna',
  lastName1: 'Meyer',
  street: 'Hauptstraße',
  streetNumber: '12',
  zipcode: '10115',
  city: 'Berlin',
  countryCode: 'DE',
};

describe('address rules (account-flows.md §5)', () => {
  it('accepts UK postcodes and refuses others for GB', () => {
    for (const code of ['EC1R 4TD', 'SW1A1AA', 'M1 1AE', 'B33 8TH', 'GIR 0AA'])
      expect(isUkPostcode(code)).toBe(true);
    for (const code of ['12345', 'EC1R', 'ABC 123']) expect(isUkPostcode(code)).toBe(false);
    expect(addressErrors({ ...valid, countryCode: 'GB', zipcode: '10115' }, ctx)).toEqual([
      { field: 'zipcode', code: 'invalid' },
    ]);
    expect(addressErrors({ ...valid, countryCode: 'GB', zipcode: 'EC1R 4TD' }, ctx)).toEqual([]);
  });

  it("knows GB's postcode form and only §9's length elsewhere: min 4 (5 not required), max 10", () => {
    const zip = (zipcode: string, countryCode: string) =>
      addressErrors({ ...valid, zipcode, countryCode }, ctx).filter((e) => e.field === 'zipcode');
    for (const [code, country] of [
      ['10115', 'DE'],
      [' 01067 ', 'de'],
      ['1010', 'AT'],
      ['8001', 'CH'],
      ['75001', 'FR'],
      ['1234 AB', 'NL'],
      // §9 "(5 not required)": a German postcode of four, an Austrian one of five.
      ['1234', 'DE'],
      ['10115', 'AT'],
    ])
      expect(zip(code, country), `${code} ${country}`).toEqual([]);
    expect(zip('123', 'DE')).toEqual([{ field: 'zipcode', code: 'too_short' }]);
    expect(zip('12345678901', 'DE')).toEqual([{ field: 'zipcode', code: 'too_long' }]);
    expect(zip('10115', 'GB')).toEqual([{ field: 'zipcode', code: 'invalid' }]);
    expect(postcodeExample('gb')).toBe('SW1A 1AA');
    expect(postcodeExample('DE')).toBeUndefined();
  });

  it('takes a phone number of digits and the usual separators, not a word', () => {
    for (const phone of ['+49 30 1234567', '030/123456', '+49 (0)30 123-456', '020 7946 0000'])
      expect(isPhoneNumber(phone), phone).toBe(true);
    for (const phone of [
      'abc',
      '1234',
      '+49 30 CALL-ME',
      'ring 0301234567',
      '030\u00a012345',
      '030\ufeff12345',
    ])
      expect(isPhoneNumber(phone), phone).toBe(false);
    expect(addressErrors({ ...valid, phoneNumber: 'abc' }, ctx)).toEqual([
      { field: 'phoneNumber', code: 'invalid' },
    ]);
    // As the order system has it, a number is not judged again.
    expect(
      addressErrors({ ...valid, phoneNumber: 'abc' }, { ...ctx, onRecord: { ...valid, phoneNumber: 'abc' } }),
    ).toEqual([]);
  });

  it('writes a UK postcode in capitals with one space before its inward code, and others as typed', () => {
    expect(postcodeAsWritten(' eh2 3dz ', 'GB')).toBe('EH2 3DZ');
    expect(postcodeAsWritten('sw1a1aa', 'gb')).toBe('SW1A 1AA');
    expect(postcodeAsWritten('EC1R  4TD', 'GB')).toBe('EC1R 4TD');
    expect(postcodeAsWritten('gir0aa', 'GB')).toBe('GIR 0AA');
    expect(postcodeAsWritten('bfpo12', 'GB')).toBe('BFPO 12');
    // Not a UK postcode, or not in the UK: as typed, for its rule to judge.
    expect(postcodeAsWritten('abc 123', 'GB')).toBe('abc 123');
    expect(postcodeAsWritten(' 10115 ', 'DE')).toBe('10115');
    expect(postcodeAsWritten('eh2 3dz', null)).toBe('eh2 3dz');
  });

  it('takes each text on one line: no line break, tab, control character or direction override', () => {
    expect(addressErrors({ ...valid, street: 'x\ny', city: '\t\tBerlin' }, ctx)).toEqual([
      { field: 'street', code: 'one_line' },
      { field: 'city', code: 'one_line' },
    ]);
    expect(addressErrors({ ...valid, lastName1: 'Meyer\u202E' }, { ...ctx, addressLines: false })).toEqual([
      { field: 'lastName1', code: 'one_line' },
    ]);
    // Letters of every script stay, and a value the order system sent is its own.
    expect(addressErrors({ ...valid, lastName1: 'Øster-Łódź 李' }, ctx)).toEqual([]);
    const onRecord = { ...valid, street: 'Alte\nStraße' };
    expect(addressErrors(onRecord, { ...ctx, onRecord })).toEqual([]);
  });

  it('requires someone to deliver to: a last name, or else a company, unless the record had neither', () => {
    const nameless = { ...valid, firstName: '', lastName1: '' };
    expect(addressErrors(nameless, ctx)).toEqual([{ field: 'lastName1', code: 'required' }]);
    expect(addressErrors({ ...nameless, lastName1: '\u200b' }, ctx)).toEqual([
      { field: 'lastName1', code: 'required' },
    ]);
    expect(addressErrors({ ...nameless, company1: 'Wagner & Partner GmbH' }, ctx)).toEqual([]);
    expect(addressErrors(nameless, { ...ctx, onRecord: { ...nameless, lastName1: null } })).toEqual([]);
    expect(addressErrors(nameless, { ...ctx, onRecord: valid })).toEqual([
      { field: 'lastName1', code: 'required' },
    ]);
  });

  it('requires street and number, or address line 1 when the tenant has address lines', () => {
    expect(addressErrors({ ...valid, street: '', streetNumber: '' }, ctx).map((e) => e.field)).toEqual([
      'street',
      'streetNumber',
    ]);
    expect(
      addressErrors(
        { ...valid, street: '', streetNumber: '', addressLine1: '14 Rosebery Avenue' },
        { ...ctx, addressLines: true },
      ),
    ).toEqual([]);
  });

  it('limits names to 35, numbers to 10, zip codes to 4–10 characters, and needs a company for a company salutation', () => {
    const errors = addressErrors(
      {
        ...valid,
        lastName1: 'x'.repeat(36),
        streetNumber: '12345678901',
        zipcode: '123',
        salutationCode: '0003',
      },
      ctx,
    );
    expect(errors).toEqual([
      { field: 'lastName1', code: 'too_long' },
      { field: 'company1', code: 'required' },
      { field: 'streetNumber', code: 'too_long' },
      { field: 'zipcode', code: 'too_short' },
    ]);
  });

  it('judges the values a change alters, not those it keeps as the order system has them', () => {
    const onRecord = {
      ...valid,
      lastName1: 'Meyer-Lüdenscheidt-Wittgenstein-Sayn',
      emailAddress: 'subscriptions.department@harbourside.example',
      zipcode: '123',
      dateOfBirth: '1901-01-01',
    };
    expect(addressErrors({ ...onRecord, city: 'Leeds' }, { ...ctx, emailRequired: true, onRecord })).toEqual(
      [],
    );
    // Without the record, or where the value changed, the same values are refused.
    expect(addressErrors(onRecord, ctx).map((e) => e.field)).toEqual([
      'lastName1',
      'zipcode',
      'emailAddress',
      'dateOfBirth',
    ]);
    expect(
      addressErrors({ ...onRecord, emailAddress: `x${onRecord.emailAddress}` }, { ...ctx, onRecord }),
    ).toEqual([{ field: 'emailAddress', code: 'too_long' }]);
    // A zip code kept from the record is judged again when the country changes to GB.
    expect(addressErrors({ ...valid, countryCode: 'GB' }, { ...ctx, onRecord: valid })).toEqual([
      { field: 'zipcode', code: 'invalid' },
    ]);
    // The kind of address the tenant does not ask for keeps its limits all the same.
    expect(
      addressErrors(
        { ...valid, addressLine1: 'Hinterhaus', street: 'x'.repeat(36), streetNumber: '1'.repeat(11) },
        { ...ctx, addressLines: true },
      ),
    ).toEqual([
      { field: 'street', code: 'too_long' },
      { field: 'streetNumber', code: 'too_long' },
    ]);
    // What is required stays required: a blank kept blank is still missing.
    expect(addressErrors({ ...onRecord, city: '' }, { ...ctx, onRecord: { ...onRecord, city: '' } })).toEqual(
      [{ field: 'city', code: 'required' }],
    );
  });

  it('takes birth dates of the last 100 years and valid-from dates from tomorrow', () => {
    expect(addressErrors({ ...valid, dateOfBirth: '1926-11-21' }, ctx)).toEqual([
      { field: 'dateOfBirth', code: 'invalid' },
    ]);
    expect(addressErrors({ ...valid, dateOfBirth: '1926-11-22' }, ctx)).toEqual([]);
    expect(addressErrors({ ...valid, dateOfBirth: '1980-02-30' }, ctx)).toEqual([
      { field: 'dateOfBirth', code: 'invalid' },
    ]);
    expect(addressErrors({ ...valid, validFrom: '2027-02-30' }, ctx)).toEqual([
      { field: 'validFrom', code: 'invalid' },
    ]);
    expect(addressErrors({ ...valid, validFrom: '2026-11-22' }, ctx)).toEqual([
      { field: 'validFrom', code: 'too_early' },
    ]);
    expect(addressErrors({ ...valid, validFrom: '2026-11-23' }, ctx)).toEqual([]);
  });
});
