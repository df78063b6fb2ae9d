/**
 * The sandbox payment page's words (server/payments/sandboxPage.ts):
 * the language chosen by the opener (every text in every locale: tests/server/texts), and a change of payment method
 * that charges nothing saying so instead of "€0.00 · Pay now".
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { sandboxPage, type SandboxPageInput } from '../../../server/payments/sandboxPage';
import { pageLocale, sandboxOutcome } from '../../../server/payments/sandboxProvider';
import { ApiError } from '../../../engine/domain/apiError';
import type { PaymentSummary } from '../../../server/payments/paymentSummary';

const renewal: PaymentSummary = {
  lines: [
    {
      orderNumber: '4279710632',
      subscription: 'Technikwelt Pro – Print edition',
      offer: 'Technikwelt Pro: 24 months',
    },
  ],
  newMethod: null,
  amount: 214.2,
  currency: 'EUR',
};
const cardChange: PaymentSummary = {
  lines: [{ orderNumber: '4279710632', subscription: 'Technikwelt Pro – Print edition', offer: null }],
  newMethod: 'credit_card',
  amount: 0,
  currency: 'EUR',
};

function render(overrides: Partial<SandboxPageInput> = {}) {
  const html = sandboxPage({
    payment: { id: 'P1', method: 'CREDIT_CARD', status: 'pending', details: {} },
    summary: renewal,
    locale: 'en-GB',
    tenantName: 'Technikwelt',
    basePath: '/t/technikwelt/',
    key: 'k',
    ...overrides,
  });
  const document = new JSDOM(html).window.document;
  const text = (selector: string) =>
    [...document.querySelectorAll(selector)].map((e) => e.textContent!.replace(/\s+/g, ' ').trim());
  return { html, document, text };
}

describe('the sandbox payment page', () => {
  it('names the subscription, its order number, the offer and the amount, in the page’s language', () => {
    const english = render();
    expect(english.document.documentElement.lang).toBe('en-GB');
    expect(english.text('.lines li')).toEqual([
      'Technikwelt Pro – Print edition Order no. 4279710632 Technikwelt Pro: 24 months',
    ]);
    expect(english.text('.amount')).toEqual(['Amount: €214.20']);
    expect(english.text('form button')).toEqual(['Pay now', 'Cancel payment']);

    const german = render({
      locale: 'de-DE',
      summary: {
        ...renewal,
        lines: [
          {
            ...renewal.lines[0],
            subscription: 'Technikwelt Pro – Print',
            offer: 'Technikwelt Pro: 24 Monate',
          },
        ],
      },
    });
    expect(german.document.documentElement.lang).toBe('de-DE');
    expect(german.text('h1')).toEqual(['Zahlung (Testumgebung)']);
    expect(german.text('.lines li')).toEqual([
      'Technikwelt Pro – Print Bestellnr. 4279710632 Technikwelt Pro: 24 Monate',
    ]);
    expect(german.text('.amount')).toEqual(['Betrag: 214,20 €']);
    expect(german.text('form button')).toEqual(['Jetzt bezahlen', 'Zahlung abbrechen']);
    expect(german.text('label')).toEqual(['Kartennummer', 'Gültig bis (MM/JJ)', 'Karteninhaber']);
  });

  it('says that a change of payment method charges nothing, and saves the card instead of paying', () => {
    for (const [locale, words] of [
      [
        'en-GB',
        {
          title: 'Payment method (sandbox)',
          none: 'No amount is charged now.',
          buttons: ['Save card', 'Cancel'],
          line: 'New payment method: credit card',
        },
      ],
      [
        'de-DE',
        {
          title: 'Zahlungsart (Testumgebung)',
          none: 'Es wird jetzt kein Betrag abgebucht.',
          buttons: ['Karte speichern', 'Abbrechen'],
          line: 'Neue Zahlungsart: Kreditkarte',
        },
      ],
    ] as const) {
      const page = render({ locale, summary: cardChange });
      expect(page.text('h1')).toEqual([words.title]);
      expect(page.text('.amount')).toEqual([words.none]);
      expect(page.text('form button')).toEqual(words.buttons);
      expect(page.text('.lines .item')).toEqual([words.line]);
      expect(page.document.body.textContent).not.toMatch(/0[.,]00|Pay now|Jetzt bezahlen/);
    }
    const paypal = render({
      payment: { id: 'P1', method: 'PAYPAL', status: 'pending', details: {} },
      summary: { ...cardChange, newMethod: 'paypal' },
    });
    expect(paypal.text('form button')).toEqual(['Save PayPal (sandbox) as payment method', 'Cancel']);
    expect(paypal.document.getElementById('payment')!.getAttribute('data-text-success')).toBe(
      'Payment method saved. This window closes now.',
    );
  });

  it('lists every order of a bulk renewal and escapes what it names', () => {
    const page = render({
      summary: {
        ...renewal,
        amount: 400,
        lines: [
          renewal.lines[0],
          { orderNumber: '4279707530', subscription: '<b>Pay</b> & "Post"', offer: 'Renew' },
        ],
      },
    });
    expect(page.text('.lines .order-number')).toEqual(['Order no. 4279710632', 'Order no. 4279707530']);
    expect(page.text('.lines .subscription')[1]).toBe('<b>Pay</b> & "Post"');
    expect(page.html).not.toContain('<b>Pay</b>');
  });

  it('a settled payment shows no form', () => {
    const page = render({ payment: { id: 'P1', method: 'CREDIT_CARD', status: 'success', details: {} } });
    expect(page.document.querySelector('form')).toBeNull();
    expect(page.text('[role=status]')[0]).toBe('This payment has already been completed.');
  });

  it('says a payment given up or declined was so, not that it was completed (account-flows.md §8)', () => {
    const status = (payment: { status: 'canceled' | 'error'; details?: Record<string, unknown> }) =>
      render({ payment: { id: 'P1', method: 'CREDIT_CARD', details: {}, ...payment } }).text(
        '[role=status]',
      )[0];
    expect(status({ status: 'canceled' })).toBe('This payment was cancelled. You can close this window.');
    expect(status({ status: 'error' })).toBe('This payment was declined. You can close this window.');
    // Cancelled by the portal, not its payer: the subscription was cancelled while the page was open.
    expect(status({ status: 'canceled', details: { canceledBecause: 'subscription_cancelled' } })).toBe(
      'This payment was cancelled because a subscription it was for has been cancelled in the meantime. Nothing has been charged. You can close this window.',
    );
  });
});

describe('the page’s language', () => {
  it('is the opener’s `lang` when the tenant offers it, else the payment’s', () => {
    const both = ['de-DE', 'en-GB'];
    expect(pageLocale(both, 'en', 'de-DE')).toBe('en-GB');
    expect(pageLocale(both, 'en-GB', 'de-DE')).toBe('en-GB');
    expect(pageLocale(both, 'de', 'en-GB')).toBe('de-DE');
    expect(pageLocale(both, 'fr', 'de-DE')).toBe('de-DE');
    expect(pageLocale(both, undefined, 'en-GB')).toBe('en-GB');
    expect(pageLocale(both, ['en'], 'de-DE')).toBe('de-DE');
    expect(pageLocale(['de-DE'], 'en', 'de-DE')).toBe('de-DE');
  });
});

describe('the sandbox card check', () => {
  const now = new Date('2026-12-06T12:00:00Z');
  const pay = (card: { cardNumber?: string; expiry?: string; holder?: string }) =>
    sandboxOutcome({ action: 'pay', method: 'CREDIT_CARD', ...card }, now);
  const refusedFields = (card: Parameters<typeof pay>[0]) => {
    try {
      pay(card);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return ((error as ApiError).details as { fields: Record<string, string> }).fields;
    }
    throw new Error('not refused');
  };

  it('takes the expiry with or without its slash, as a card form does', () => {
    const card = { cardNumber: '4242 4242 4242 4242', holder: 'Sam Taylor' };
    expect(pay({ ...card, expiry: '12/28' })).toBe('success');
    expect(pay({ ...card, expiry: '1228' })).toBe('success');
    expect(pay({ ...card, expiry: ' 12 / 28 ' })).toBe('success');
    expect(pay({ ...card, expiry: '12/26' })).toBe('success');
  });

  it('takes a number pasted with more spaces than a card shows, which the page’s fields keep whole', () => {
    expect(pay({ cardNumber: ' 4242  4242  4242  4242 ', expiry: ' 12 / 28 ', holder: 'Sam Taylor' })).toBe(
      'success',
    );
    // No field cuts what is typed or pasted (docs/subscribers.md "no field drops what was typed").
    expect(render().document.querySelectorAll('input[maxlength]')).toHaveLength(0);
  });

  it('names each refused field with a code the page words in its language', () => {
    expect(refusedFields({ cardNumber: '4242', expiry: '13/28', holder: ' ' })).toEqual({
      cardNumber: 'invalid',
      expiry: 'invalid',
      holder: 'required',
    });
    expect(refusedFields({ cardNumber: '4242424242424242', expiry: '11/26', holder: 'Sam' })).toEqual({
      expiry: 'expired',
    });
    // The page carries each code's words in its language, under the name its script asks for.
    const words = (locale: 'de-DE' | 'en-GB', code: string) =>
      render({ locale }).document.getElementById('payment')!.getAttribute(`data-text-${code}`);
    expect(words('en-GB', 'invalidexpiry')).toBe('Please enter the expiry as MM/YY, for example 12/29.');
    expect(words('de-DE', 'invalidexpiry')).toBe(
      'Bitte geben Sie das Ablaufdatum als MM/JJ ein, zum Beispiel 12/29.',
    );
    expect(words('en-GB', 'expiredexpiry')).toBe('This card has expired.');
    expect(words('de-DE', 'requiredholder')).toBe('Bitte geben Sie den Namen des Karteninhabers ein.');
    expect(words('en-GB', 'invalidcardnumber')).toBe('Please enter the card number: 12 to 19 digits.');
  });
});
