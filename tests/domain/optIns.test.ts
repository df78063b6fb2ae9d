import { describe, expect, it } from 'vitest';
import { changedOptIns, optInChoices, optInsChanged } from '../../engine/domain/optIns';

const loaded = [
  { type: 'NEWSLETTER', value: true, pending: false },
  { type: 'ANGEBOTE', value: false, pending: false },
  { type: 'EVENTS', value: false, pending: true },
];

describe('opt-in rules (account-flows.md §4 "Opt-ins")', () => {
  it('shows a box ticked when on or waiting for its confirmation', () => {
    expect(optInChoices(loaded)).toEqual({ NEWSLETTER: true, ANGEBOTE: false, EVENTS: true });
  });

  it('enables save only when a box differs from the loaded value', () => {
    expect(optInsChanged(loaded, optInChoices(loaded))).toBe(false);
    expect(optInsChanged(loaded, { ...optInChoices(loaded), ANGEBOTE: true })).toBe(true);
    // Ticked and unticked again: nothing differs.
    expect(optInsChanged(loaded, { ...optInChoices(loaded), NEWSLETTER: true })).toBe(false);
  });

  it('sends only the changed items, in the loaded order', () => {
    expect(changedOptIns(loaded, { NEWSLETTER: false, ANGEBOTE: true, EVENTS: true })).toEqual([
      { type: 'NEWSLETTER', value: false },
      { type: 'ANGEBOTE', value: true },
    ]);
  });
});
