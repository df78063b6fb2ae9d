/**
 * The anonymous entries' outcomes (engine/account/offers/entryOutcomes.ts): a flow the
 * subscription's publication is blacklisted for (portal-core.md §6) says so in the screen's
 * language, not the generic failure.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../engine/core/translation';
import { ApiError } from '../../../engine/domain/apiError';
import { entryMessage, entryResultOf } from '../../../engine/account/offers/entryOutcomes';

const files = ['engine/core/texts.json', 'engine/account/texts.json'].map((file) =>
  JSON.parse(readFileSync(file, 'utf8')),
);
const texts = {
  'de-DE': Object.assign({}, ...files.map((f) => f['de-DE'])),
  'en-GB': Object.assign({}, ...files.map((f) => f['en-GB'])),
};
const t = (locale: 'de-DE' | 'en-GB') => createTranslator({ locale, fallbackLocale: 'en-GB', texts }).t;

describe('an anonymous entry refused for the subscription’s publication', () => {
  const refused = new ApiError(
    403,
    'feature_disabled',
    'This portal does not offer renewal for this subscription.',
  );

  it('is its own outcome, not the generic failure', () => {
    expect(entryResultOf(refused)).toEqual({ outcome: 'entry:not_offered' });
  });

  it('names the way to customer service in both languages', () => {
    const result = entryResultOf(refused);
    expect(entryMessage(t('de-DE'), result)).toMatch(/Kundenservice/);
    expect(entryMessage(t('en-GB'), result)).toMatch(/customer service/);
  });
});

describe('an anonymous cancellation of a bundle component', () => {
  const refused = new ApiError(409, 'bundle_component', 'This subscription is part of a bundle.');

  it('says to cancel the bundle, in both languages', () => {
    const result = entryResultOf(refused);
    expect(result.outcome).toBe('entry:bundle_component');
    expect(entryMessage(t('de-DE'), result)).toMatch(/Paket/);
    expect(entryMessage(t('en-GB'), result)).toMatch(/bundle/);
  });
});
