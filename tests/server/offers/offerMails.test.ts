/**
 * The mail of an accepted offer (server/offers/offerMails.ts) says how its amount is paid: paid
 * online, debited, charged to the card or the PayPal account on record, or invoiced; a retention or upgrade
 * offer the way the subscription pays, a renewal the way its offer names.
 */
import { describe, expect, it } from 'vitest';
import { offerAcceptedMail, offerBilling, type OfferBilling } from '../../../server/offers/offerMails';

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
    const text = (locale: 'de-DE' | 'en-GB', billing: OfferBilling) =>
      offerAcceptedMail(locale, { ...values, billing }).text;
    expect(text('de-DE', 'debited')).toContain('(wir buchen ihn von Ihrem Konto ab)');
    expect(text('de-DE', 'invoice')).toContain('(Sie erhalten eine Rechnung)');
    expect(text('de-DE', 'paid')).toContain('(bezahlt)');
    expect(text('de-DE', 'charged_card')).toContain(
      '(wird wie Ihre Abo-Zahlungen über Ihre Karte abgerechnet)',
    );
    expect(text('de-DE', 'charged_paypal')).toContain('über Ihr PayPal-Konto abgerechnet');
    expect(text('en-GB', 'debited')).toContain('(debited from your account)');
    expect(text('en-GB', 'invoice')).toContain('(invoiced)');
    expect(text('en-GB', 'charged_card')).toContain(
      "charged like your subscription's payments, to your card)",
    );
    expect(text('en-GB', 'charged_paypal')).toContain('to your PayPal account)');
  });

  it("names a bundle renewal's format and from when it is that format", () => {
    const text = (locale: 'de-DE' | 'en-GB', later: boolean) =>
      offerAcceptedMail(locale, {
        ...values,
        billing: 'paid',
        change: { kind: 'extend', date: '2027-12-31', mixType: 'KO', later, formatFrom: '2027-01-06' },
      }).text;
    expect(text('de-DE', true)).toContain(
      'läuft jetzt bis 31.12.2027, ab 06.01.2027 als Kombi: Print + E-Paper.',
    );
    expect(text('en-GB', false)).toContain(
      'now runs until 31 Dec 2027, as Print + digital bundle from today.',
    );
  });

  it('promises no invoice or charge for an offer at no cost', () => {
    const free = (locale: 'de-DE' | 'en-GB') =>
      offerAcceptedMail(locale, { ...values, amount: 0, billing: 'invoice' }).text;
    expect(free('de-DE')).toMatch(/Betrag: 0,00\s€ \(kostenlos\)/);
    expect(free('de-DE')).not.toContain('Rechnung');
    expect(free('en-GB')).toContain('Amount: €0.00 (free of charge)');
  });

  it('bills a retention or upgrade offer as the subscription pays, a renewal as its offer names', () => {
    const billing = (source: 'cancellation' | 'upgrade' | 'renewal', offerProvider: string, pays?: string) =>
      offerBilling({ paidOnline: false, source, offerProvider, subscriptionPays: pays });
    expect(billing('cancellation', 'INVOICE', 'direct_debit')).toBe('debited');
    expect(billing('upgrade', 'INVOICE', 'sepa')).toBe('debited');
    expect(billing('upgrade', 'INVOICE', 'credit_card')).toBe('charged_card');
    expect(billing('cancellation', 'INVOICE', 'paypal')).toBe('charged_paypal');
    expect(billing('cancellation', 'INVOICE', 'invoice')).toBe('invoice');
    expect(billing('cancellation', 'INVOICE', undefined)).toBe('invoice');
    expect(billing('renewal', 'INVOICE', 'direct_debit')).toBe('invoice');
    expect(billing('renewal', 'DIRECT_DEBIT', 'invoice')).toBe('debited');
    expect(
      offerBilling({
        paidOnline: true,
        source: 'renewal',
        offerProvider: 'CREDIT_CARD',
        subscriptionPays: undefined,
      }),
    ).toBe('paid');
  });
});
