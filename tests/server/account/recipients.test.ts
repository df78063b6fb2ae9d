/**
 * Who hears of a change to a partner's data, and in which language (server/account/accountContext.ts):
 * the account in its own, a partner at another address (a gift's recipient) in the publisher's.
 */
import { describe, expect, it } from 'vitest';
import { recipientsInLanguages } from '../../../server/account/accountContext';

describe('the mails of a change', () => {
  it("write to the partner's own address in the publisher's language, the account in its own", () => {
    expect(
      recipientsInLanguages(
        { email: 'Anna@Example.org', locale: 'en-GB' },
        { email: 'max@example.org', locale: 'de-DE' },
      ),
    ).toEqual([
      { to: 'anna@example.org', locale: 'en-GB' },
      { to: 'max@example.org', locale: 'de-DE' },
    ]);
  });

  it('write once when the partner is the account, or has no address on record', () => {
    const account = { email: 'anna@example.org', locale: 'en-GB' as const };
    expect(recipientsInLanguages(account, { email: ' ANNA@example.org ', locale: 'de-DE' })).toEqual([
      { to: 'anna@example.org', locale: 'en-GB' },
    ]);
    expect(recipientsInLanguages(account, { email: null, locale: 'de-DE' })).toEqual([
      { to: 'anna@example.org', locale: 'en-GB' },
    ]);
  });
});
