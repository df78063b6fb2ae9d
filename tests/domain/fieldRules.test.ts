import { describe, expect, it } from 'vitest';
import {
  fitsOrderAttribute,
  isBlankText,
  mailboxOf,
  isValidBpNumber,
  isValidCustomerNumber,
  isValidOrderNumber,
  isValidPassword,
  isValidZipCode,
  isPlausibleEmail,
  isSignInAddress,
  isPrintableOnLabel,
  maskEmail,
  maskEmailName,
  passwordProblem,
  passwordRepeatProblem,
  textLength,
} from '../../engine/domain/fieldRules';
import { addressErrors } from '../../engine/domain/addressRules';
import { eCardProblems } from '../../engine/domain/eCard';
import { charsOver } from '../../engine/ui/lengthLimit';

describe('field rules of portal-core.md §5', () => {
  it.each([
    ['4123456789', true],
    ['12345678', true],
    ['1234567', false],
    ['12345678901', false],
    ['41234a6789', false],
    ['', false],
  ])('order number %j is %s', (value, valid) => expect(isValidOrderNumber(value)).toBe(valid));

  it('accepts customer numbers of 8 to 10 digits', () => {
    expect(isValidCustomerNumber('12345678')).toBe(true);
    expect(isValidCustomerNumber('1234567')).toBe(false);
  });

  it('accepts business partner numbers of exactly 10 digits', () => {
    expect(isValidBpNumber('1000000001')).toBe(true);
    expect(isValidBpNumber('100000001')).toBe(false);
  });

  it('requires a zip code of at most 10 characters', () => {
    expect(isValidZipCode('86150')).toBe(true);
    expect(isValidZipCode('SW1A 1AA')).toBe(true);
    expect(isValidZipCode('   ')).toBe(false);
    expect(isValidZipCode('12345678901')).toBe(false);
  });

  it.each([
    ['Abcdefg1', true],
    ['abcdefg1', false],
    ['ABCDEFG1', false],
    ['Abcdefgh', false],
    ['Abc1', false],
    ['Abcdefghij1234567890X', false],
    ['Abcdefghij123456789X', true],
  ])('password %j is %s', (value, valid) => expect(isValidPassword(value)).toBe(valid));

  it('checks e-mail addresses plausibly', () => {
    expect(isPlausibleEmail('a@b.example')).toBe(true);
    expect(isPlausibleEmail('a b@c.example')).toBe(false);
    expect(isPlausibleEmail('a@b')).toBe(false);
    expect(isPlausibleEmail('anna.o+news@mail.example.co.uk')).toBe(true);
  });

  // A login address must be one every sign-in form takes: the API schemas' `email` format is this
  // rule, so an address taken as a new login is one its owner can sign in with.
  it.each([
    ['anna.o+news@mail.example.co.uk', true],
    ["o'brien_x@sub-domain.example", true],
    ['zoë@example.org', false],
    ['zoe@exämple.org', false],
    ['a..b@example.org', false],
    ['a@-example.org', false],
    ['a@example', false],
    ['a b@example.org', false],
  ])('sign-in address %j is %s', (value, valid) => expect(isSignInAddress(value)).toBe(valid));

  // A mail library reads these as a list or a name with an address and delivers elsewhere.
  it.each([
    'one<farm@evil.example>',
    'victim@x.example,farm@evil.example',
    'victim,farm@evil.example',
    'a;b@c.example',
    '"a b"@c.example',
    'a(c)@b.example',
    'a\\b@c.example',
    'x:y@c.example',
    'a@[127.0.0.1].example',
  ])('refuses %s as one e-mail address', (value) => expect(isPlausibleEmail(value)).toBe(false));

  it("masks an e-mail's name and domain, keeping their first letters and the last label, whatever its length", () => {
    expect(maskEmail('anna.schmidt@example.de')).toBe('a***@e***.de');
    expect(maskEmail('ab@x.de')).toBe('a***@x***.de');
    // An employer's or a family's own domain is not told: only its first letter and last label.
    expect(maskEmail('p.wagner@wagner-partner.co.uk')).toBe('p***@w***.uk');
    expect(maskEmail('root@localhost')).toBe('r***@l***');
    expect(maskEmail('anna@example.de.')).toBe('a***@e***.de');
    // A whole first character, never half of one.
    expect(maskEmail('😀x@😀mail.example')).toBe('😀***@😀***.example');
    expect(maskEmail('not-an-address')).toBe('***');
  });

  it('keeps the domain where the reader owns the other side (maskEmailName)', () => {
    expect(maskEmailName('anna.schmidt@schmidt-family.de')).toBe('a***@schmidt-family.de');
    expect(maskEmailName('not-an-address')).toBe('***');
  });

  it.each([
    ['', 'required'],
    ['Abc1', 'too_short'],
    ['Abcdefghij1234567890X', 'too_long'],
    ['abcdefgh1', 'needs_mix'],
    ['ABCDEFGH1', 'needs_mix'],
    ['Abcdefghi', 'needs_mix'],
    ['Abcdefghij123456789X', null],
    // Letters of any script count: Ä is upper case, é and ß lower case.
    ['Äbcdefg1', null],
    ['abcdefgÄ1', null],
    ['ABCDEFGé1', null],
    ['STRAßE2026', null],
    ['ÄÖÜ12345', 'needs_mix'],
  ])('names what password %j lacks: %s (a 21st character is too long, never cut)', (value, problem) =>
    expect(passwordProblem(value)).toBe(problem),
  );

  it('requires the repeat of a new password, and the same one', () => {
    expect(passwordRepeatProblem('', '')).toBe('required');
    expect(passwordRepeatProblem('Reader2026', '')).toBe('required');
    expect(passwordRepeatProblem('Reader2026', 'Reader2027')).toBe('mismatch');
    expect(passwordRepeatProblem('Reader2026', 'Reader2026')).toBeNull();
  });
});

describe('a field left empty for the eye', () => {
  it('is nothing, or only spaces, line breaks, control and invisible format characters', () => {
    for (const blank of [undefined, null, '', '   ', '\n\t', '\u00a0', '\u202e', '\u200b\u2066', '\u0007'])
      expect(isBlankText(blank), JSON.stringify(blank)).toBe(true);
    for (const given of ['a', ' Ö ', '\u202eabc', '-', '7', '😀', '李'])
      expect(isBlankText(given), JSON.stringify(given)).toBe(false);
  });
});

describe('the mailbox of an address', () => {
  it('is the normalized address without a +tag in its local part', () => {
    expect(mailboxOf(' Mia+Messe@Example.org ')).toBe('mia@example.org');
    expect(mailboxOf('mia@example.org')).toBe('mia@example.org');
    expect(mailboxOf('a+b+c@x.example')).toBe('a@x.example');
    // Gmail ignores dots and has two domains: one inbox.
    expect(mailboxOf('Voucher.Farm@gmail.com')).toBe('voucherfarm@gmail.com');
    expect(mailboxOf('v.oucher.farm+x@googlemail.com')).toBe('voucherfarm@gmail.com');
    expect(mailboxOf('voucher.farm@example.org')).toBe('voucher.farm@example.org');
  });
});

describe('a text’s length, as a person and the database count it', () => {
  it('counts an emoji or any character beyond the first plane as one', () => {
    expect(textLength('🎉'.repeat(30))).toBe(30);
    expect(textLength('Zoë Müller')).toBe(10);
    expect(textLength('𝔘𝔫𝔦')).toBe(3);
    // A lone surrogate is one unit, as it is one code point.
    expect(textLength('\ud800x')).toBe(2);
  });

  it('refuses emoji in a postal address and an e-mail address, not © or ® or letters of any script', () => {
    const ctx = { addressLines: false, companySalutations: [], emailRequired: false, today: '2026-11-30' };
    const address = {
      salutationCode: '0001',
      lastName1: 'Meyer',
      street: 'Strandweg',
      streetNumber: '1',
      zipcode: '10115',
      city: 'Berlin',
      countryCode: 'DE',
    };
    expect(addressErrors({ ...address, street: 'Strandweg 🏖️' }, ctx)).toEqual([
      { field: 'street', code: 'not_printable' },
    ]);
    expect(addressErrors({ ...address, lastName1: 'Meyer ✨' }, ctx)).toEqual([
      { field: 'lastName1', code: 'not_printable' },
    ]);
    expect(addressErrors({ ...address, lastName1: 'Łukasiewicz-Øster', company1: 'Acme® ©' }, ctx)).toEqual(
      [],
    );
    expect(isPrintableOnLabel('Ἀθῆναι 東京 Zürich')).toBe(true);
    expect(isPlausibleEmail('jönas😀@example.org')).toBe(false);
    expect(isPlausibleEmail('jönas@example.org')).toBe(true);
  });

  it('lets the limits of the forms take 35 emoji in a field of 35 characters, and say 36 when there are', () => {
    expect(charsOver('🏠'.repeat(35), 35)).toBe(0);
    expect(charsOver('🏠'.repeat(36), 35)).toBe(1);
    const address = {
      salutationCode: '0001',
      lastName1: 'Meyer',
      // A character beyond the first plane that is no emoji (an address takes none: below).
      street: '𠀋'.repeat(20),
      streetNumber: '1',
      zipcode: '10115',
      city: 'Berlin',
      countryCode: 'DE',
    };
    const ctx = { addressLines: false, companySalutations: [], emailRequired: false, today: '2026-11-30' };
    expect(addressErrors(address, ctx)).toEqual([]);
    const card = {
      template: 'birthday',
      from: '🎉'.repeat(30),
      to: 'Anna',
      toEmail: 'anna@example.org',
      message: 'Alles Gute!',
      timing: 'now' as const,
    };
    expect(
      eCardProblems(
        card,
        [{ name: 'birthday', category: 'Geburtstag', previewImageUrl: 'birthday.png' }],
        new Date('2026-11-30T10:00:00Z'),
      ),
    ).toEqual({});
  });
});

describe("an order attribute's value of its kind (portal-core.md §3 inputType)", () => {
  it('takes numbers, addresses, phone numbers and calendar days as people write them', () => {
    for (const value of ['12', '3,5', '3.5', '-2'])
      expect(fitsOrderAttribute('number', value), value).toBe(true);
    for (const value of ['12a', '1e5', '', '3,5,1'])
      expect(fitsOrderAttribute('number', value), value).toBe(false);
    expect(fitsOrderAttribute('email', 'anna@example.org')).toBe(true);
    expect(fitsOrderAttribute('email', 'anna@')).toBe(false);
    for (const value of ['+49 30 123456', '(030) 12-34/56'])
      expect(fitsOrderAttribute('tel', value), value).toBe(true);
    for (const value of ['call me', '+', '12']) expect(fitsOrderAttribute('tel', value), value).toBe(false);
    expect(fitsOrderAttribute('date', '2028-02-29')).toBe(true);
    for (const value of ['2027-02-29', '2027-13-01', '01.03.2027', '2027-3-1'])
      expect(fitsOrderAttribute('date', value), value).toBe(false);
    expect(fitsOrderAttribute('text', 'anything')).toBe(true);
    expect(fitsOrderAttribute(undefined, 'anything')).toBe(true);
  });
});
