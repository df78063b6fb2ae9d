import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ApiError } from '../../../engine/domain/apiError';
import { refusalOf } from '../../../engine/features/login/refusalText';
import { loginErrorText } from '../../../engine/features/login/loginErrors';
import { createTranslator } from '../../../engine/core/translation';

type Locale = 'de-DE' | 'en-GB';
const TABLES = ['engine/core/texts.json', 'engine/features/login/texts.json'].map(
  (file) => JSON.parse(readFileSync(file, 'utf8')) as Record<Locale, Record<string, string>>,
);
const translate = (locale: Locale) => (key: string, values?: Record<string, unknown>) => {
  const text = TABLES.map((table) => table[locale][key]).find((found) => found !== undefined);
  if (text === undefined) throw new Error(`no text ${key}`);
  return createTranslator({ locale, fallbackLocale: false, texts: { [locale]: { [key]: text } } }).t(
    key,
    values,
  );
};
const en = translate('en-GB');
const de = translate('de-DE');

describe("a refused registration or forgot-password address shows the server's reason (portal-core.md §8)", () => {
  const refusedAddress = new ApiError(400, 'validation_failed', 'The request is not valid.', [
    { field: '/email', message: 'must match format "email"' },
  ]);

  it('puts an address the server refuses at the e-mail field, in the screen’s language, never "login failed"', () => {
    expect(refusalOf(refusedAddress, en, 'en-GB')).toEqual({ fields: { email: en('login.emailRefused') } });
    expect(refusalOf(refusedAddress, de, 'de-DE').fields.email).toMatch(
      /^Diese E-Mail-Adresse können wir nicht annehmen/,
    );
    expect(Object.values(refusalOf(refusedAddress, en, 'en-GB').fields)).not.toContain(en('login.error'));
  });

  it('names the length the server allows for a too long address', () => {
    const tooLong = new ApiError(400, 'validation_failed', 'The request is not valid.', [
      { field: '/email', message: 'must NOT have more than 50 characters' },
    ]);
    expect(refusalOf(tooLong, en, 'en-GB').fields.email).toBe(en('login.emailTooLong', { max: 50 }));
  });

  it('keeps the texts of the refusals the sign-in forms name (weak password, passwords that differ)', () => {
    expect(
      refusalOf(
        new ApiError(400, 'weak_password', 'The password needs …', [
          { field: '/password', message: 'does not meet the password rule' },
        ]),
        en,
        'en-GB',
      ).fields.password,
    ).toBe(en('login.passwordRule'));
    expect(refusalOf(new ApiError(409, 'account_exists', 'exists'), en, 'en-GB')).toEqual({
      fields: {},
      message: en('login.accountExists'),
    });
  });

  it("shows the server's own message for a refusal it has no text for, on an English screen only", () => {
    const unknown = new ApiError(409, 'registration_closed', 'Registration is closed for now.');
    expect(refusalOf(unknown, en, 'en-GB')).toEqual({
      fields: {},
      message: 'Registration is closed for now.',
    });
    // The server writes British English: a German screen says the generic error in German.
    expect(refusalOf(unknown, de, 'de-DE')).toEqual({ fields: {}, message: de('shell.genericError') });
  });

  it('says in the screen’s language that the portal has no password sign-in', () => {
    const refused = new ApiError(
      404,
      'password_login_disabled',
      'This portal does not offer sign-in with a password.',
    );
    expect(refusalOf(refused, de, 'de-DE').message).toBe(de('login.passwordNotOffered'));
    expect(refusalOf(refused, en, 'en-GB').message).toBe(en('login.passwordNotOffered'));
  });

  it('shows the generic error when no answer came (the network) or the server failed', () => {
    expect(refusalOf(new TypeError('Failed to fetch'), en, 'en-GB')).toEqual({
      fields: {},
      message: en('shell.genericError'),
    });
    expect(
      refusalOf(
        new ApiError(503, 'database_unavailable', 'The service is briefly unavailable.'),
        de,
        'de-DE',
      ),
    ).toEqual({ fields: {}, message: de('shell.genericError') });
  });
});

describe('a sign-in refused for its missing security cookie (an embedded portal over HTTP)', () => {
  it('says what to do instead of "try again", in the screen’s language', () => {
    const refused = new ApiError(403, 'xsrf_failed', 'The request could not be verified.');
    expect(loginErrorText(refused, en)).toBe(en('login.cookieRefused'));
    expect(loginErrorText(refused, de)).toMatch(/in einem eigenen Tab/);
    expect(loginErrorText(refused, en)).not.toBe(en('login.error'));
  });
});
