/**
 * Every 429 says when to try again, in the screen's language, from the answer's
 * retryAfterSeconds; the login form, the entry forms and the widgets share this text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../engine/core/translation';
import { tooManyText, tryAgainText } from '../../engine/core/tooManyText';
import { ApiError } from '../../engine/domain/apiError';
import { entryMessage, entryResultOf } from '../../engine/account/offers/entryOutcomes';
import { loginErrorText } from '../../engine/features/login/loginErrors';

const files = ['engine/core/texts.json', 'engine/account/texts.json', 'engine/features/login/texts.json'].map(
  (file) => JSON.parse(readFileSync(file, 'utf8')),
);
const texts = {
  'de-DE': Object.assign({}, ...files.map((f) => f['de-DE'])),
  'en-GB': Object.assign({}, ...files.map((f) => f['en-GB'])),
};
const t = (locale: 'de-DE' | 'en-GB') => createTranslator({ locale, fallbackLocale: 'en-GB', texts }).t;
const limited = (seconds?: number) =>
  new ApiError(
    429,
    'rate_limited',
    'Too many attempts.',
    seconds === undefined ? undefined : { retryAfterSeconds: seconds },
  );

describe('the message of a 429', () => {
  it('says the minutes to wait in German and in English', () => {
    expect(tooManyText(t('de-DE'), limited(13 * 60 + 20))).toBe(
      'Zu viele Versuche. Bitte versuchen Sie es in 14 Minuten erneut.',
    );
    expect(tooManyText(t('en-GB'), limited(13 * 60 + 20))).toBe(
      'Too many attempts. Please try again in 14 minutes.',
    );
  });

  it('uses the singular for one minute and hours for long waits', () => {
    expect(tryAgainText(t('de-DE'), 20)).toBe('Bitte versuchen Sie es in 1 Minute erneut.');
    expect(tryAgainText(t('en-GB'), 20)).toBe('Please try again in 1 minute.');
    expect(tryAgainText(t('de-DE'), 5 * 3600)).toBe('Bitte versuchen Sie es in 5 Stunden erneut.');
    expect(tryAgainText(t('en-GB'), 3600 * 1.6)).toBe('Please try again in 2 hours.');
  });

  it('says "later" when the answer names no time (a proxy\'s 429)', () => {
    expect(tooManyText(t('en-GB'), limited())).toBe('Too many attempts. Please try again later.');
  });

  it('lets a confirmation link opened again say the account is confirmed, not that the link is invalid', () => {
    expect(loginErrorText(new ApiError(409, 'already_confirmed', ''), t('de-DE'))).toBe(
      'Ihr Konto ist bereits bestätigt. Bitte melden Sie sich an.',
    );
  });

  it('is what the sign-in forms show for rate_limited, with their own lead', () => {
    expect(loginErrorText(limited(600), t('de-DE'))).toBe(
      'Zu viele Versuche. Bitte versuchen Sie es in 10 Minuten erneut.',
    );
    expect(loginErrorText(new ApiError(401, 'invalid_credentials', ''), t('en-GB'))).not.toMatch(
      /try again in/,
    );
  });

  it('is what the anonymous entry forms show (renewal, cancellation, bulk renewal)', () => {
    const result = entryResultOf(limited(240));
    expect(result).toEqual({ outcome: 'entry:rate_limited', retryAfterSeconds: 240 });
    expect(entryMessage(t('en-GB'), result)).toBe('Too many attempts. Please try again in 4 minutes.');
  });
});
