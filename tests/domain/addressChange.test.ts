import { describe, expect, it } from 'vitest';
import {
  addressChangeAccess,
  asapMissesNextIssue,
  companySalutationCodes,
  countryRoleOf,
  isAddressFieldEditable,
  requiredAddressFields,
  salutationChoices,
  sortRoles,
  timingErrors,
} from '../../engine/domain/addressChange';

const today = '2026-11-22';
const salutations = [
  { code: '0001', isUserSelectable: true, isCompany: false },
  { code: '0002', isUserSelectable: true, isCompany: false },
  { code: '0003', isUserSelectable: true, isCompany: true },
  { code: '0009', isUserSelectable: false, isCompany: false },
];

describe('address change rules (account-flows.md §4, §5)', () => {
  it('locks names, country, e-mail, phone and birth date unless the tenant allows each; street and zip stay editable', () => {
    expect(addressChangeAccess(undefined)).toEqual({
      names: false,
      country: false,
      email: false,
      phone: false,
      dateOfBirth: false,
    });
    expect(isAddressFieldEditable('lastName1', {})).toBe(false);
    expect(isAddressFieldEditable('lastName1', { allowNameChange: true })).toBe(true);
    expect(isAddressFieldEditable('emailAddress', { allowNameChange: true })).toBe(false);
    expect(isAddressFieldEditable('street', {})).toBe(true);
  });

  it('stars the fields the rules require: lines or street and number, zip, city, country, a company for company salutations, else a last name unless a company is named, e-mail when one exists', () => {
    const ctx = {
      addressLines: false,
      companySalutations: companySalutationCodes(salutations),
      emailRequired: false,
    };
    expect([...requiredAddressFields(ctx, '0001')]).toEqual([
      'street',
      'streetNumber',
      'zipcode',
      'city',
      'countryCode',
      'lastName1',
    ]);
    expect([...requiredAddressFields(ctx, '0001', 'Wagner & Partner GmbH')]).not.toContain('lastName1');
    expect([...requiredAddressFields({ ...ctx, addressLines: true, emailRequired: true }, '0003')]).toEqual([
      'addressLine1',
      'zipcode',
      'city',
      'countryCode',
      'company1',
      'emailAddress',
    ]);
  });

  it('offers only user-selectable salutations when names may change', () => {
    expect(salutationChoices(salutations, true).map((s) => s.code)).toEqual(['0001', '0002', '0003']);
    expect(salutationChoices(salutations, false)).toHaveLength(4);
    expect(salutationChoices([{ code: '0005' }], true)).toEqual([{ code: '0005' }]);
  });

  it('needs a date for a timed change', () => {
    expect(timingErrors('date', '')).toEqual([{ field: 'validFrom', code: 'required' }]);
    expect(timingErrors('date', '2026-12-01')).toEqual([]);
    expect(timingErrors('asap', null)).toEqual([]);
  });

  it('warns when an as-soon-as-possible change misses the next issue already shipping', () => {
    expect(asapMissesNextIssue('asap', { dateOfFirstShipping: today }, today)).toBe(true);
    expect(asapMissesNextIssue('asap', { dateOfFirstShipping: '2026-11-23' }, today)).toBe(false);
    expect(asapMissesNextIssue('date', { dateOfFirstShipping: '2026-11-20' }, today)).toBe(false);
    expect(asapMissesNextIssue('asap', null, today)).toBe(false);
  });

  it('takes the goods recipient country list first and sorts roles WE, RE, AG, LV', () => {
    expect(countryRoleOf(['AG', 'WE'])).toBe('WE');
    expect(countryRoleOf(['AG', 'RE'])).toBe('RE');
    expect(sortRoles(['LV', 'AG', 'WE'])).toEqual(['WE', 'AG', 'LV']);
  });
});
