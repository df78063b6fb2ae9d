import { describe, expect, it } from 'vitest';
import { localizedDetails } from '../../../server/store/localizedDetails';

const details = {
  displayName: 'Technikwelt Digital – Digital-Zugang',
  edition: null as string | null,
  mixTypeDetails: { mixTypeDesc: 'Digital-Zugang', pdfDownload: false },
  translations: {
    'en-GB': {
      displayName: 'Technikwelt Digital – Online access',
      mixTypeDetails: { mixTypeDesc: 'Online access' },
    },
  },
};

describe('order-system prose in the language of the request', () => {
  it('lays the translation over the stored words, merging nested objects key by key', () => {
    expect(localizedDetails(details, 'en-GB')).toEqual({
      displayName: 'Technikwelt Digital – Online access',
      edition: null,
      mixTypeDetails: { mixTypeDesc: 'Online access', pdfDownload: false },
    });
  });

  it('keeps the stored words for the stored language, an unknown locale or no locale, and never leaks translations', () => {
    for (const locale of ['de-DE', 'fr-FR', undefined]) {
      const answer = localizedDetails(details, locale);
      expect(answer.displayName).toBe('Technikwelt Digital – Digital-Zugang');
      expect(answer).not.toHaveProperty('translations');
    }
  });
});
