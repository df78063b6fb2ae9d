import { describe, expect, it } from 'vitest';
import { labelInSentence } from '../../../engine/features/subscription/attributeLabel';

describe('an order attribute label inside "Add …" / "Change …"', () => {
  it('is written in lower case in English ("Add cost centre", not "Add Cost centre")', () => {
    expect(labelInSentence('Cost centre', 'en-GB')).toBe('cost centre');
    expect(labelInSentence('Your purchase reference', 'en-GB')).toBe('your purchase reference');
  });

  it('keeps an abbreviation as written', () => {
    expect(labelInSentence('VAT ID', 'en-GB')).toBe('VAT ID');
    expect(labelInSentence('PO number', 'en-GB')).toBe('PO number');
    expect(labelInSentence('USt-IdNr.', 'en-GB')).toBe('USt-IdNr.');
  });

  it('keeps German nouns capitalised', () => {
    expect(labelInSentence('Kostenstelle', 'de-DE')).toBe('Kostenstelle');
  });
});
