/**
 * The sandbox payment page fits its popup (docs/architecture.md "Payments"; account-flows.md §9
 * "Popup default size 640 by 640"): in German and in English, for a card and a PayPal payment, a
 * bulk renewal of many subscriptions and a change of payment method, no button lies below the fold
 * and the page does not scroll. The page is the server's own markup
 * (server/payments/sandboxPage.ts) with the style file the portal serves, so what is measured is
 * what a subscriber gets.
 */
import { expect, test } from '@playwright/test';
import type { Locale } from '../../engine/domain/locales';
import { sandboxPage } from '../../server/payments/sandboxPage';
import type { PaymentSummary } from '../../server/payments/paymentSummary';

const TENANT = 'technikwelt';
const POPUP = { width: 640, height: 640 };

// Long names, as order systems write them, in each language.
const NAMES: Record<Locale, { subscription: string; offer: string }> = {
  'de-DE': {
    subscription: 'Technikwelt Pro – Kombi: Print + E-Paper, Stadtausgabe',
    offer: 'Technikwelt Pro: Paket Print + Digital, 12 Monate',
  },
  'en-GB': {
    subscription: 'Technikwelt Pro – Print + digital bundle, National edition',
    offer: 'Technikwelt Pro: print + digital bundle, 12 months',
  },
};
const lines = (locale: Locale, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    orderNumber: String(4279710632 + i),
    subscription: NAMES[locale].subscription,
    offer: NAMES[locale].offer,
  }));

const VARIANTS: Record<
  string,
  (locale: Locale) => { method: 'CREDIT_CARD' | 'PAYPAL'; summary: PaymentSummary }
> = {
  'card payment': (l) => ({
    method: 'CREDIT_CARD',
    summary: { lines: lines(l, 1), newMethod: null, amount: 214.2, currency: 'EUR' },
  }),
  'PayPal payment': (l) => ({
    method: 'PAYPAL',
    summary: { lines: lines(l, 1), newMethod: null, amount: 214.2, currency: 'EUR' },
  }),
  'bulk renewal of six': (l) => ({
    method: 'CREDIT_CARD',
    summary: { lines: lines(l, 6), newMethod: null, amount: 1285.2, currency: 'EUR' },
  }),
  'card registration': (l) => ({
    method: 'CREDIT_CARD',
    summary: {
      lines: lines(l, 1).map((x) => ({ ...x, offer: null })),
      newMethod: 'credit_card',
      amount: 0,
      currency: 'EUR',
    },
  }),
  'PayPal registration': (l) => ({
    method: 'PAYPAL',
    summary: {
      lines: lines(l, 1).map((x) => ({ ...x, offer: null })),
      newMethod: 'paypal',
      amount: 0,
      currency: 'EUR',
    },
  }),
};

test.use({ viewport: POPUP, isMobile: false, hasTouch: false });

for (const locale of ['de-DE', 'en-GB'] as const) {
  for (const [name, variant] of Object.entries(VARIANTS)) {
    test(`${locale}: the ${name} page fits the 640 × 640 popup with every button in view`, async ({
      page,
    }, testInfo) => {
      test.skip(testInfo.project.name !== 'desktop', 'the popup is a desktop window; one run is enough');
      const { method, summary } = variant(locale);
      const path = `/t/${TENANT}/api/payments/sandbox/layout-check`;
      await page.route(`**${path}*`, (route) =>
        route.fulfill({
          contentType: 'text/html; charset=utf-8',
          body: sandboxPage({
            payment: { id: 'layout-check', method, status: 'pending', details: {} },
            summary,
            locale,
            tenantName: 'Technikwelt Verlag GmbH',
            basePath: `/t/${TENANT}/`,
            key: 'k',
          }),
        }),
      );
      await page.goto(`${path}?key=k`);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      // The portal's style file is applied (the two-column row of expiry and holder, or the compact summary).
      await expect(page.locator('#payment')).toHaveCSS('max-width', '512px');

      const buttons = page.locator('form button');
      await expect(buttons).toHaveCount(2);
      for (const button of await buttons.all()) {
        await expect(button).toBeInViewport({ ratio: 1 });
        const box = (await button.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(POPUP.height);
      }
      await expect(page.locator('.amount')).toBeInViewport({ ratio: 1 });
      const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
}
