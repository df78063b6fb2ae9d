/**
 * The mail of an accepted offer (server/offers/offerMails.ts) says how its amount is paid: paid
 * online, debited from the account on record (an offer by direct debit) or invoiced.
 */
import { describe, expect, it } from 'vitest';
import { offerAcceptedMail } from '../../../server/offers/offerMails';

const values = {
  tenant: 'TechnikWelt',
  subscription: 'Technikwelt Pro',
  orderNumber: '4279706520',
  offer: '12 Monate',
  amount: 90,
  currency: 'EUR',
  change: { kind: 'extend', date: '2027-12-31' } as never,
};

describe('the mail of an accepted offer', () => {
  it('says how the amount is paid, in the mail’s language', () => {
    const text = (locale: 'de-DE' | 'en-GB', paidOnline: boolean, debited: boolean) =>
      offerAcceptedMail(locale, { ...values, paidOnline, debited }).text;
    expect(text('de-DE', false, true)).toContain('(wir buchen ihn von Ihrem Konto ab)');
    expect(text('de-DE', false, false)).toContain('(Sie erhalten eine Rechnung)');
    expect(text('de-DE', true, false)).toContain('(bezahlt)');
    expect(text('en-GB', false, true)).toContain('(debited from your account)');
    expect(text('en-GB', false, false)).toContain('(invoiced)');
  });
});
