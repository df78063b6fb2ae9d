import { describe, expect, it } from 'vitest';
import { changedOptIns, optInChoices, optInName, optInsChanged } from '../../engine/domain/optIns';

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

describe('the name of an opt-in, the same on the screen and in the confirmation e-mail', () => {
  const tenantTypes = [
    {
      type: 'NEWSLETTER',
      description: {
        'de-DE': 'TechnikWelt-Newsletter per E-Mail',
        'en-GB': 'TechnikWelt newsletter by e-mail',
      },
    },
  ];
  const stored = {
    'de-DE': 'E-Mail-Newsletter mit Neuigkeiten und Angeboten',
    'en-GB': 'E-mail newsletter with news and offers',
  };

  it("is the tenant's label of the type in the language shown", () => {
    expect(optInName(tenantTypes, { type: 'NEWSLETTER', description: stored }, 'de-DE')).toBe(
      'TechnikWelt-Newsletter per E-Mail',
    );
    expect(optInName(tenantTypes, { type: 'NEWSLETTER', description: stored }, 'en-GB')).toBe(
      'TechnikWelt newsletter by e-mail',
    );
    // The screen gets the server's answer, already named: the same rule gives the same name again.
    expect(
      optInName(
        tenantTypes,
        { type: 'NEWSLETTER', description: 'E-mail newsletter with news and offers' },
        'en-GB',
      ),
    ).toBe('TechnikWelt newsletter by e-mail');
  });

  it("is the order system's description in that language for a type the tenant does not label, else the code", () => {
    expect(
      optInName(
        tenantTypes,
        { type: 'POST', description: { 'de-DE': 'Angebote per Post', 'en-GB': 'Offers by post' } },
        'en-GB',
      ),
    ).toBe('Offers by post');
    expect(optInName(undefined, { type: 'POST', description: 'Angebote per Post' }, 'de-DE')).toBe(
      'Angebote per Post',
    );
    expect(optInName(undefined, { type: 'POST', description: null }, 'de-DE')).toBe('POST');
  });
});
