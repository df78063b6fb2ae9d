/**
 * Journeys of the orders and subscription pages (portal-core.md §2) on two tenants and both
 * languages (technikwelt in English via ?lang=en, stadtkurier in German): find a subscription by
 * search, open it, page through the payment history, request an invoice twice (the second is
 * refused), download the invoice PDF, and link subscriptions through each result status of
 * portal-core.md §4/§8.
 *
 * Desktop and phone run against the same server and database one after the other, so each project
 * picks its own invoice and its own subscriber to link, and a step whose outcome depends on what
 * an earlier run linked reads that state from the API first.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { buildDemoData } from '../../server/seed/demoData';
import { maskEmail, maskEmailName } from '../../engine/domain/fieldRules';
import { mailedLink, signInByMagicLink } from './support';
import { pdfText } from '../server/documents/pdfText';

type Locale = 'de-DE' | 'en-GB';
const TEXT_FILES = [
  'core/texts.json',
  'account/texts.json',
  'features/orders/texts.json',
  'features/subscription/texts.json',
  'features/link-subscription/texts.json',
];
const TEXTS = TEXT_FILES.map(
  (file) => JSON.parse(readFileSync(`engine/${file}`, 'utf8')) as Record<Locale, Record<string, string>>,
);

function texts(locale: Locale) {
  return (key: string, vars: Record<string, string | number> = {}) => {
    const table = TEXTS.find((t) => t[locale][key] !== undefined);
    if (!table) throw new Error(`no text ${key}`);
    return table[locale][key].replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? ''));
  };
}

/** A text with its placeholders as wildcards, for names that carry data. */
function textPattern(locale: Locale, key: string): RegExp {
  const table = TEXTS.find((t) => t[locale][key] !== undefined)!;
  const escaped = table[locale][key].replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{\{\w+\}\}/g, '.+')}$`);
}

const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const tenantFile = (id: string) => JSON.parse(readFileSync(`tenants/${id}.json`, 'utf8'));

const JOURNEYS = [
  { tenant: 'technikwelt', locale: 'en-GB' as Locale, lang: 'en' },
  { tenant: 'stadtkurier', locale: 'de-DE' as Locale, lang: 'de' },
];

/** The demo data the server seeded today (a pure function of tenant and day). */
function demoData(tenantId: string) {
  return buildDemoData(tenantFile(tenantId), new Date());
}

async function signIn(page: Page, tenant: string, email: string, lang: string) {
  await signInByMagicLink(page, tenant, email, GERMAN_LOGIN);
  await page.goto(`/t/${tenant}/orders?lang=${lang}`);
}

for (const { tenant, locale, lang } of JOURNEYS) {
  test.describe(`${tenant} in ${locale}`, () => {
    test('finds a subscription by search, pages its invoices, requests one twice and downloads its PDF', async ({
      page,
    }, testInfo) => {
      const t = texts(locale);
      const data = demoData(tenant);
      const main = data.logins[0].email;
      // The main persona's first subscription: print, auto-renewal, 30 invoices.
      // Its name as the order system wrote it in the screen's language (one language a screen).
      const details = data.subscriptions[0].details;
      const title = (details.translations?.[locale]?.displayName ?? details.displayName)!;
      await signIn(page, tenant, main, lang);

      await page.getByLabel(t('orders.search')).fill(title.toUpperCase());
      const subscriptions = page.locator('section[aria-labelledby="subscriptions-title"] .subscription-card');
      await expect(subscriptions).toHaveCount(1);
      await expect(subscriptions.getByRole('heading', { name: title })).toBeVisible();
      await page.getByRole('link', { name: t('account.manageNamed', { title }) }).click();

      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await page.getByText(t('subscription.paymentsHeading'), { exact: true }).click();
      const pager = page.getByRole('navigation', { name: t('subscription.paymentPager') });
      await expect(
        pager.getByRole('button', { name: t('subscription.pageNumber', { page: 1 }) }),
      ).toHaveAttribute('aria-current', 'page');
      await pager.getByRole('button', { name: t('subscription.pageNumber', { page: 2 }) }).click();
      await expect(
        pager.getByRole('button', { name: t('subscription.pageNumber', { page: 2 }) }),
      ).toHaveAttribute('aria-current', 'page');
      // One neighbour each side: on page 2 of 3 the pages 1, 2 and 3 are offered.
      await expect(
        pager.getByRole('button', { name: t('subscription.pageNumber', { page: 3 }) }),
      ).toBeVisible();
      // The list is named after the page its entries belong to, so this waits for page 2 to arrive.
      const list = page.getByRole('list', {
        name: new RegExp(
          `^${t('subscription.paymentPageLabel', { page: 2, pages: 3 }).replace(' 3', ' \\d+')}$`,
        ),
      });
      await expect(list).toBeVisible();

      // Each project requests its own invoice (both run against the same database).
      const entry = list.locator('.history-item').nth(testInfo.project.name === 'phone' ? 1 : 0);
      const requestButton = entry.getByRole('button', {
        name: textPattern(locale, 'subscription.requestInvoice'),
      });
      const invoiceNumber = ((await requestButton.textContent()) ?? '').replace(/\D/g, '');
      expect(invoiceNumber).toMatch(/^\d{10}$/);

      await requestButton.click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('account.requestInvoiceConfirm') })
        .click();
      await expect(
        page.getByRole('dialog').getByRole('heading', { name: t('account.invoiceStatus.success') }),
      ).toBeVisible();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('shell.close') })
        .click();
      await expect(page.getByRole('dialog')).toHaveCount(0);

      await requestButton.click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('account.requestInvoiceConfirm') })
        .click();
      await expect(
        page.getByRole('dialog').getByRole('heading', { name: t('account.invoiceStatus.processing') }),
      ).toBeVisible();
      await expect(page.getByRole('dialog').getByText(t('account.invoiceOncePerDay'))).toBeVisible();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('shell.close') })
        .click();

      const downloading = page.waitForEvent('download');
      await entry
        .getByRole('button', { name: t('subscription.downloadInvoice', { number: invoiceNumber }) })
        .click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`DOC-${invoiceNumber}.pdf`);
      const bytes = readFileSync((await download.path())!);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // Read back as a PDF reader does: the publisher's section of the tenant file, in the screen's
      // language (docs/invoices.md "Invoices and documents").
      const { text } = await pdfText(bytes);
      expect(text).toContain(`${locale === 'de-DE' ? 'Rechnungsnummer' : 'Invoice number'} ${invoiceNumber}`);
      expect(text).toContain(tenantFile(tenant).invoice?.publisher?.name ?? tenantFile(tenant).name);
    });

    test("opens a purchase order's address and invoice request, whose dialogs load only then", async ({
      page,
    }) => {
      const t = texts(locale);
      const main = demoData(tenant).logins[0].email;
      const dialogFiles: string[] = [];
      page.on('request', (request) => {
        if (/account-dialogs-[^/]*\.js$/.test(request.url())) dialogFiles.push(request.url());
      });
      await signIn(page, tenant, main, lang);
      const purchases = page.locator('section[aria-labelledby="purchase-orders-title"]');
      const address = purchases.getByRole('button', { name: t('orders.addressButton') }).first();
      await expect(address).toBeVisible();
      // Every card has the same buttons: each is described by its order's title.
      await expect(address).toHaveAccessibleDescription(
        (await purchases.locator('.purchase-order-card h3').first().textContent())!,
      );
      // portal-core.md §2: the page's dialogs are not part of the page until one opens.
      expect(dialogFiles).toEqual([]);
      await address.click();
      const dialog = page.getByRole('dialog', { name: t('orders.addressTitle') });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('address')).not.toBeEmpty();
      expect(dialogFiles.length).toBeGreaterThan(0);
      await dialog.getByRole('button', { name: t('shell.close') }).click();
      await expect(dialog).toBeHidden();
      await expect(address).toBeFocused();

      const request = purchases.getByRole('button', { name: t('orders.requestInvoice') }).first();
      if (await request.count()) {
        await request.click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      }
      await page.reload();
      await expect(purchases.getByRole('button', { name: t('orders.addressButton') }).first()).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });

    test('links subscriptions through every result status', async ({ page }, testInfo) => {
      const t = texts(locale);
      const data = demoData(tenant);
      const settings = tenantFile(tenant);
      const demoEmail = 'demo@portal.example';
      const linkedBps = new Set(data.userBusinessPartners.map((u) => u.bp_number));
      const partnerOf = (subscriptionId: string) => {
        const bp = data.subscriptionRoles.find(
          (r) => r.subscription_id === subscriptionId && r.role === 'AG',
        )!.bp_number;
        return data.businessPartners.find((b) => b.bp_number === bp)!;
      };
      const unlinked = data.subscriptions.filter((s) => !linkedBps.has(partnerOf(s.id).bp_number));
      const noEmail = unlinked.filter((s) => partnerOf(s.id).email_address === null);
      const withoutAddress = noEmail.find((s) => s.order_status === 'A')!;
      const inactive = noEmail.find((s) => s.order_status === 'I')!;
      // A person with an address on record and no account, cancelled (no anonymous cancellation
      // takes it): each project links its own, from the end of the list (the badge journey of
      // shellStates.spec.ts takes the third from the end).
      const withAddress = unlinked.filter(
        (s) =>
          s.order_status === 'AK' &&
          partnerOf(s.id).email_address !== null &&
          partnerOf(s.id).company1 === null,
      );
      const target = withAddress[withAddress.length - 1 - (testInfo.project.name === 'phone' ? 1 : 0)];
      const onRecord = partnerOf(target.id).email_address!;
      const taken = data.subscriptions[0];

      await signIn(page, tenant, demoEmail, lang);
      await page.getByRole('link', { name: t('orders.linkSubscription') }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: t('link-subscription.heading') }),
      ).toBeVisible();

      const form = page.locator('form.link-form');
      const alert = form.locator('.alert');
      async function submit(subscription: { publication: string }, orderNumber: string, zipcode: string) {
        if (settings.hasMultipleAvsClients)
          await page
            .getByRole('combobox', { name: t('link-subscription.publication') })
            .selectOption(subscription.publication);
        await page.getByRole('textbox', { name: t('link-subscription.orderNumber') }).fill(orderNumber);
        await page.getByRole('textbox', { name: t('link-subscription.zipcode') }).fill(zipcode);
        await page.getByLabel(t('link-subscription.giftNo'), { exact: true }).check();
        await page.getByRole('button', { name: t('link-subscription.submit') }).click();
      }

      // Field rules of §5 first: nothing reaches the server without them.
      await page.getByRole('button', { name: t('link-subscription.submit') }).click();
      await expect(form.getByText(t('link-subscription.error.required')).first()).toBeVisible();

      // validation_failed: the mask accepts 9 digits, the order system has 10.
      await submit(target, target.order_number.slice(0, 9), partnerOf(target.id).zipcode);
      await expect(alert).toHaveText(t('link-subscription.result.validation_failed'));
      // not_found
      await submit(target, '4999999999', partnerOf(target.id).zipcode);
      await expect(alert).toHaveText(t('link-subscription.result.not_found'));
      // not_supported: an ended subscription
      await submit(inactive, inactive.order_number, partnerOf(inactive.id).zipcode);
      await expect(alert).toHaveText(
        t('link-subscription.result.not_supported', { orderNumber: inactive.order_number }),
      );
      // verification_failed: the zip code does not match
      await submit(target, target.order_number, '00000');
      await expect(alert).toHaveText(
        t('link-subscription.result.verification_failed.zip', { orderNumber: target.order_number }),
      );
      // already_linked: another account's subscription, its e-mail masked
      await submit(taken, taken.order_number, partnerOf(taken.id).zipcode);
      await expect(alert).toHaveText(
        t('link-subscription.result.already_linked', { maskedEmail: maskEmail(data.logins[0].email) }),
      );
      // no_email_on_record: nothing can prove the subscription is this account's; customer service can
      await submit(withoutAddress, withoutAddress.order_number, partnerOf(withoutAddress.id).zipcode);
      await expect(alert).toContainText(t('link-subscription.result.no_email_on_record'));
      await expect(alert.getByRole('button', { name: t('shell.toContact') })).toBeVisible();

      // confirm_email: the address on record gets a link, masked here; closing the dialog clears it.
      const since = new Date().toISOString();
      await submit(target, target.order_number, partnerOf(target.id).zipcode);
      const sent = page.getByRole('dialog');
      await expect(
        sent.getByText(t('link-subscription.confirmText', { maskedEmail: maskEmail(onRecord) })),
      ).toBeVisible();
      await sent.getByRole('button', { name: t('link-subscription.confirmClose') }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(alert).toHaveCount(0);

      // Opening the link (here in the same browser, signed in as the account that asked) changes
      // nothing until the button; then the subscription is this account's, with the 'new' badge.
      await page.goto(await mailedLink(page, tenant, onRecord, since));
      await expect(
        page.getByRole('heading', { level: 1, name: t('link-subscription.confirmLink.heading') }),
      ).toBeVisible();
      // Before the button, the page names what it links and to which account.
      await expect(page.locator('.link-confirm')).toContainText(
        t('link-subscription.confirmLink.what', {
          what: t('link-subscription.confirmLink.bySubscription', { orderNumber: target.order_number }),
          maskedEmail: maskEmailName(demoEmail),
        }),
      );
      await page.getByRole('button', { name: t('link-subscription.confirmLink.submit') }).click();
      const done = page.locator('.link-confirm .alert');
      await expect(done).toContainText(
        t('link-subscription.confirmLink.done', { maskedEmail: maskEmailName(demoEmail) }),
      );
      // A reload shows what happened, not the button of the spent link.
      await page.reload();
      await expect(done).toContainText(
        t('link-subscription.confirmLink.done', { maskedEmail: maskEmailName(demoEmail) }),
      );
      await expect(page.getByRole('button', { name: t('link-subscription.confirmLink.submit') })).toHaveCount(
        0,
      );
      // §4: the new-subscription flag shows the 'new' badge on the orders menu item (on a phone on
      // the menu's toggle while the menu is folded).
      await expect(page.locator('.menu-badge:visible').first()).toHaveText(t('account.newBadge'));
      await page.getByRole('button', { name: t('link-subscription.toOrders') }).click();
      await expect(page).toHaveURL(new RegExp(`/t/${tenant}/orders`));
      await expect(page.locator('.subscription-card', { hasText: target.order_number })).toBeVisible();
      // §2: the badge stays while the list is looked at, a reload included, and goes however the
      // orders page is left: here by a typed URL, where no cleanup of the page runs.
      await page.reload();
      await expect(page.locator('.subscription-card', { hasText: target.order_number })).toBeVisible();
      await expect(page.locator('.menu-badge:visible').first()).toHaveText(t('account.newBadge'));

      // already_linked_bp: the same subscriber again, by its order number, which the message names
      await page.goto(`/t/${tenant}/link-subscription?lang=${lang}`);
      await submit(target, target.order_number, partnerOf(target.id).zipcode);
      await expect(alert).toHaveText(
        t('link-subscription.result.already_linked_own', { orderNumber: target.order_number }),
      );
      await expect(page.locator('.menu-badge')).toHaveCount(0);

      // §8: a subscription that does not load opens a dialog back to /orders; one not on this
      // account says so, in the page's language, rather than that loading failed.
      await page.goto(`/t/${tenant}/subscriptions/${encodeURIComponent(taken.id)}?lang=${lang}`);
      const failure = page.getByRole('dialog');
      await expect(failure.getByRole('heading', { name: t('subscription.notFoundTitle') })).toBeVisible();
      await expect(failure.getByText(t('subscription.notFound'))).toBeVisible();
      await failure.getByRole('button', { name: t('subscription.backToOrders') }).click();
      await expect(page).toHaveURL(new RegExp(`/t/${tenant}/orders$`));
    });
  });
}
