/**
 * What the licences page says of a refused action (engine/features/multi-user-licenses/licenseErrors.ts):
 * an entry removed meanwhile (404 in another tab's wake) is said as such, not as the generic error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../engine/core/translation';
import { ApiError } from '../../../engine/domain/apiError';
import { actionErrorText } from '../../../engine/features/multi-user-licenses/licenseErrors';

const file = JSON.parse(readFileSync('engine/features/multi-user-licenses/texts.json', 'utf8'));
const t = (locale: 'de-DE' | 'en-GB') => createTranslator({ locale, fallbackLocale: 'en-GB', texts: file }).t;

describe('a refused licence action', () => {
  it('says an entry removed meanwhile is gone, in the screen’s language', () => {
    const gone = new ApiError(404, 'not_found', 'There is no such licence.');
    expect(actionErrorText(gone, t('en-GB'))).toBe(file['en-GB']['multi-user-licenses.error.gone']);
    expect(actionErrorText(gone, t('de-DE'))).toBe(file['de-DE']['multi-user-licenses.error.gone']);
  });

  it('leaves what it cannot name to the generic error', () => {
    expect(actionErrorText(new ApiError(500, 'internal', 'x'), t('en-GB'))).toBeUndefined();
  });
});
