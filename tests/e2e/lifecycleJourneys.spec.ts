/**
 * One subscription, one truth (docs/architecture.md "The subscription lifecycle"): a journey per
 * lifecycle flow that changes a subscription, reloads, and checks what the subscription page and
 * the flow's own page show then — the status badge, the end ("Runs until" / "Läuft bis"), the
 * retention and planned-upgrade facts, and that an accepted offer is not offered again. technikwelt
 * (every flow, both languages): the desktop project (1280 px) in English, switched with the shell's
 * language button; the phone project (360 px) in the tenant's German.
 *
 * Desktop and phone share one database and run one after the other (desktop first), after the
 * other suites' journeys of the same project, so each journey picks at run time the first of the
 * demo login's subscriptions still in the state it needs:
 *  1. cancel: an active renewal subscription (the demo login has one, TWM); the phone run cancels
 *     it again after the desktop run renewed it (a renewal revokes the cancellation);
 *  2. renew: the cancelled renewal subscription journey 1 left; each project prefers a payment
 *     accountFlows.spec.ts's bulk renewal of the same project does not take (desktop invoice, phone
 *     direct debit) and falls back to the next offer still open, paid in the sandbox popup;
 *  3. retention: a subscription without a retention discount takes the invoice-paid one;
 *  4. upgrade: one without a planned upgrade takes the next-cycle upgrade (invoice, no popup).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page, type Response, type TestInfo } from '@playwright/test';
import { buildDemoData } from '../../server/seed/demoData';
import { formatDate } from '../../engine/domain/dates';
import {
  renewedUntilOf,
  retentionOfferIds,
  screenTexts,
  signInByMagicLink,
  subscriptionsOfSession,
} from './support';

type Locale = 'de-DE' | 'en-GB';
const TENANT = 'technikwelt';
const TEXT_FILES = [
  'core/texts.json',
  'account/texts.json',
  'features/cancellation/texts.json',
  'features/renewal/texts.json',
  'features/upgrade/texts.json',
  'features/subscription/texts.json',
];
/** The screens' own texts, so a journey reads what the subscriber reads. */
const texts = screenTexts(TEXT_FILES);

/** desktop: English at 1280 px; phone: German at 360 px. */
const localeOf = (testInfo: TestInfo): Locale => (testInfo.project.name === 'phone' ? 'de-DE' : 'en-GB');

/** The sandbox payment page's labels (server/payments/sandboxPage.ts), in the language of the page that opened it. */
const SANDBOX: Record<
  Locale,
  { title: RegExp; cardNumber: string; expiry: string; holder: string; pay: string; approve: string }
> = {
  'de-DE': {
    title: /Zahlung \(Testumgebung\)/,
    cardNumber: 'Kartennummer',
    expiry: 'Gültig bis (MM/JJ)',
    holder: 'Karteninhaber',
    pay: 'Jetzt bezahlen',
    approve: 'Mit PayPal (Test) bezahlen',
  },
  'en-GB': {
    title: /Payment \(sandbox\)/,
    cardNumber: 'Card number',
    expiry: 'Expiry (MM/YY)',
    holder: 'Cardholder name',
    pay: 'Pay now',
    approve: 'Pay with PayPal (sandbox)',
  },
};
const CARD_SUCCEEDS = '4242 4242 4242 4242';

const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const DEMO_EMAIL = 'demo@portal.example';
/** Words of the German screens that must not appear on the English subscription page. */
const GERMAN_WORDS =
  /\b(Ausgabe|Gekündigt|Aktiv|Endet|bis|Januar|Februar|März|Mai|Juni|Juli|Oktober|Dezember|Rabatt|Monate)\b/;

const tenantFile = JSON.parse(readFileSync(`tenants/${TENANT}.json`, 'utf8'));
/** The demo data the server seeded today (a pure function of tenant and day). */
const demoData = buildDemoData(tenantFile, new Date()) as ReturnType<typeof buildDemoData> & {
  cancellationReasons: Array<{ publication: string }>;
};
/** The demo login's own subscriptions (not those another journey linked to it later). */
const OWN = (() => {
  const bp = demoData.userBusinessPartners.find((link) => link.email === DEMO_EMAIL)!.bp_number;
  return new Set(
    demoData.subscriptionRoles
      .filter((role) => role.bp_number === bp && role.role === 'AG')
      .map((role) => role.subscription_id),
  );
})();
/** Publications whose subscriptions can be cancelled online: reasons exist and the tenant does not blacklist them. */
const CANCELLABLE_PUBLICATIONS = new Set(
  demoData.cancellationReasons
    .map((r) => r.publication)
    .filter((p) => !(tenantFile.publicationBlacklists?.cancellation ?? []).includes(p)),
);
/** Subscriptions cancellable regularly (no minimum term that only allows an extraordinary termination). */
const REGULAR = new Set(demoData.subscriptions.filter((s) => !s.details.minimumTermEnd).map((s) => s.id));
const UPGRADE_BLACKLIST: string[] = tenantFile.publicationBlacklists?.upgrade ?? [];

/** The fields of GET /subscriptions the journeys choose by and check. */
interface ApiSubscription {
  id: string;
  orderNumber: string;
  displayName: string;
  publication: string;
  orderStatus: string;
  mixType: string;
  isCancelable: boolean;
  isRenewal: boolean;
  salesDocumentType: string | null;
  roles: string[];
  validToOnSaleDate: string | null;
  plannedUpgrade?: { from: string; mixType?: string; mixTypeDesc: string } | null;
  retentionOffer?: { discountPercent: number; until: string } | null;
  renewal: { autoRenewal: boolean; expiryDesc: string | null; expiryIssueNr: string | null } | null;
  renewedUntil: string | null;
}

/** An offer as the flow page received it (GET …/recommendations). */
interface Offer {
  id: string;
  description: string;
  upgradeOption?: { upgradeTime: 'NOW' | 'NEXT_CYCLE' };
  paymentProviders: Array<{ PAYMENT_PROVIDER: 'INVOICE' | 'DIRECT_DEBIT' | 'CREDIT_CARD' | 'PAYPAL' }>;
}
const paidBy = (offer: Offer) => offer.paymentProviders[0]?.PAYMENT_PROVIDER;

/** The subscriptions as the API answers them in the page's language, ordered by order number. */
async function subscriptions(page: Page): Promise<ApiSubscription[]> {
  const all = (await subscriptionsOfSession(page, TENANT)) as unknown as ApiSubscription[];
  return [...all].sort((a, b) => a.orderNumber.localeCompare(b.orderNumber));
}
async function subscription(page: Page, id: string): Promise<ApiSubscription> {
  return (await subscriptions(page)).find((s) => s.id === id)!;
}

/** Signs the demo login in (German sign-in page) and, on the desktop, switches the shell to English. */
async function signIn(page: Page, locale: Locale) {
  await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
  if (locale === 'en-GB') await page.getByRole('button', { name: 'Switch to English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

/** The offers the flow page loads while `open` runs. */
async function offersLoadedBy(page: Page, open: () => Promise<unknown>): Promise<Offer[]> {
  const answer = page.waitForResponse(
    (r: Response) =>
      r.request().method() === 'GET' &&
      /\/subscriptions\/[^/]+\/recommendations/.test(new URL(r.url()).pathname) &&
      r.ok(),
  );
  await open();
  return (await (await answer).json()) as Offer[];
}

/**
 * Accepts what `submit` accepts and pays for it as the offer needs, until `success` shows: invoice
 * and direct debit are nothing to pay online (no popup opens); card and PayPal are paid in the
 * sandbox popup.
 */
async function acceptAndPay(
  page: Page,
  offer: Offer,
  orderNumber: string,
  locale: Locale,
  submit: () => Promise<void>,
  success: Locator,
) {
  const method = paidBy(offer);
  if (method === 'INVOICE' || method === 'DIRECT_DEBIT') {
    let popups = 0;
    const count = () => popups++;
    page.on('popup', count);
    await submit();
    await expect(success).toBeVisible();
    page.off('popup', count);
    expect(popups, 'payment popups opened').toBe(0);
    return;
  }
  const opened = page.waitForEvent('popup');
  await submit();
  const popup = await opened;
  const sandbox = SANDBOX[locale];
  // The popup speaks the language of the page that opened it and names the order it is paying for
  // (account-flows.md §4 "Offer acceptance", docs/architecture.md "Payments").
  await expect(popup.getByRole('heading', { level: 1, name: sandbox.title })).toBeVisible();
  await expect(popup.locator('body')).toContainText(orderNumber);
  const closed = popup.waitForEvent('close');
  if (method === 'PAYPAL') {
    await popup.getByRole('button', { name: sandbox.approve }).click();
  } else {
    await popup.getByLabel(sandbox.cardNumber).fill(CARD_SUCCEEDS);
    await popup.getByLabel(sandbox.expiry).fill('12/39');
    await popup.getByLabel(sandbox.holder).fill('Jonas Becker');
    await popup.getByRole('button', { name: sandbox.pay }).click();
  }
  await closed;
  await expect(success).toBeVisible();
}

/** Names what a journey chose, for the report (desktop and phone choose at run time). */
const note = (type: string, description: string) => test.info().annotations.push({ type, description });

/** 'YYYY-MM-DD' of a date as the page formats it: "05.01.2027" (de-DE) or "5 Jan 2027" (en-GB). */
function isoDayOf(text: string, locale: Locale): string {
  const german = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  const iso =
    locale === 'de-DE' && german
      ? `${german[3]}-${german[2]}-${german[1]}`
      : new Date(`${text} UTC`).toISOString().slice(0, 10);
  // Round trip: the page's own format of that day, so a misread date fails here.
  expect(formatDate(iso, locale)).toBe(text);
  return iso;
}

/** The value of a fact in the subscription page's details block. */
const fact = (page: Page, label: string) =>
  page
    .locator('.details-block .fact')
    .filter({ has: page.getByRole('term').getByText(label, { exact: true }) })
    .getByRole('definition');
const statusBadge = (page: Page, label: string) =>
  page.locator('.subscription-header .badges').getByText(label, { exact: true });
const offerRadio = (scope: Page | Locator, offerId: string) =>
  scope.locator(`input[type="radio"][value="${offerId}"]`);

/**
 * The end the subscription page shows is the API's (one truth): a renewal subscription's "Ends
 * with" names its last issue, else its last day; another one's "Valid to" its last day, or nothing
 * while it runs on. Dates in the page's language.
 */
async function expectEndShown(page: Page, s: ApiSubscription, locale: Locale) {
  const t = texts(locale);
  if (s.isRenewal) {
    const issue = s.renewal?.expiryIssueNr;
    await expect(fact(page, t('subscription.expiryIssue'))).toHaveText(
      issue ? t('account.issue', { issueNumber: issue }) : formatDate(s.validToOnSaleDate, locale),
    );
    await expect(fact(page, t('subscription.validTo'))).toHaveCount(0);
  } else if (s.validToOnSaleDate) {
    await expect(fact(page, t('subscription.validTo'))).toHaveText(formatDate(s.validToOnSaleDate, locale));
  } else {
    await expect(fact(page, t('subscription.validTo'))).toHaveCount(0);
  }
}

/** Opens the subscription page; answers the product's name as the page shows it (in its language). */
async function openSubscription(page: Page, s: ApiSubscription, locale: Locale) {
  await page.goto(`/t/${TENANT}/subscriptions/${s.id}`);
  // The page's language first: the API answers names in it (the document starts in the tenant's).
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  const title = (await subscription(page, s.id)).displayName;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  return title;
}

test('cancel: a renewal subscription cancelled to the first date offered shows cancelled and ending with that issue after a reload, on its page, its cancellation page and the overview', async ({
  page,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const t = texts(locale);
  await signIn(page, locale);
  // An active renewal subscription the demo login may cancel regularly; one still ending with an
  // issue of the order system first (the phone run takes the one the desktop run renewed).
  const candidates = (await subscriptions(page)).filter(
    (s) =>
      OWN.has(s.id) &&
      REGULAR.has(s.id) &&
      s.isRenewal &&
      s.orderStatus === 'A' &&
      s.isCancelable &&
      s.salesDocumentType !== 'WBZA' &&
      s.roles.includes('AG') &&
      CANCELLABLE_PUBLICATIONS.has(s.publication),
  );
  const target = candidates.find((s) => s.renewal?.expiryIssueNr) ?? candidates[0];
  expect(target, 'an active renewal subscription that can be cancelled').toBeDefined();
  // Journeys before this one renew subscriptions of the same login: while a renewal runs, the one
  // date offered is the renewed term's end (engine/domain/lifecycle.ts renewedUntil).
  const renewedUntil = await renewedUntilOf(page, TENANT, target.id, 'PREIS');

  const title = await openSubscription(page, target, locale);
  const endsWith = fact(page, t('subscription.expiryIssue'));
  await expect(endsWith).not.toHaveText('');
  const endBefore = (await endsWith.textContent())!;
  await page.getByRole('link', { name: t('cancellation.action'), exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: t('cancellation.heading') })).toBeVisible();
  // technikwelt preselects PREIS, whose retention offers come first: turned down here.
  await expect(page.getByLabel(t('cancellation.reason'))).toHaveValue('PREIS');
  await page.getByRole('button', { name: t('cancellation.offers.reject') }).click();
  const date = page.getByLabel(t('cancellation.date'));
  await expect(date.locator('option')).not.toHaveCount(0);
  const options = await date.locator('option').allTextContents();
  const chosen = options[0];
  await expect(date.locator('option:checked')).toHaveText(chosen);
  let issueNumber: string | null = null;
  let effectiveDate: string;
  if (renewedUntil) {
    effectiveDate = formatDate(renewedUntil, locale);
    // A fixed date (the field locked, its hint saying why) is shown as the date alone.
    const fixed = await date.isDisabled();
    expect(options).toEqual([
      fixed ? effectiveDate : t('cancellation.dateLabel.earliestOn', { date: effectiveDate }),
    ]);
    await expect(page.getByText(t('cancellation.dateRenewed', { date: effectiveDate }))).toBeVisible();
  } else {
    // technikwelt's date style names issue and date: "Issue 7/2026 (5 Jul 2026)" / "Ausgabe 7/2026 (05.07.2026)".
    const parsed = /^\S+ (\S+) \(([^)]+)\)(?: – .+)?$/.exec(chosen) ?? [];
    expect(parsed[1], `date option "${chosen}"`).toBeDefined();
    [issueNumber, effectiveDate] = [parsed[1], parsed[2]];
  }
  // No date after the subscription's end is offered (the server refuses it too).
  if (target.validToOnSaleDate && !renewedUntil) {
    const end = target.validToOnSaleDate.slice(0, 10);
    for (const option of options)
      expect(
        isoDayOf(/\(([^)]+)\)(?: – .+)?$/.exec(option)![1], locale) <= end,
        `${option} after the end ${end}`,
      ).toBe(true);
  }
  note('cancelled', `${target.orderNumber}: ${endBefore} → ${chosen}`);
  await page.getByRole('button', { name: t('cancellation.submit') }).click();
  await page
    .getByRole('dialog', { name: t('cancellation.confirmTitle') })
    .getByRole('button', { name: t('cancellation.confirmYes') })
    .click();
  const success = page.getByRole('dialog', { name: t('cancellation.successTitle') });
  await expect(
    success.getByText(
      // In the date style the date was chosen in (§4).
      // (The renewed term's end by its day: the answer names no issue.)
      t('cancellation.successText', {
        title,
        orderNumber: target.orderNumber,
        // As chosen, with what the date ends (the term or the paid period) where the select said it.
        date: renewedUntil ? effectiveDate : chosen,
      }),
    ),
  ).toBeVisible();
  await success.getByRole('button', { name: t('shell.close') }).click();
  await expect(page.getByText(t('cancellation.cancelledOn', { date: effectiveDate }))).toBeVisible();
  await page.getByRole('button', { name: t('account.flow.back') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${target.id}$`));

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(statusBadge(page, t('account.status.AK'))).toBeVisible();
  // The end is the cancellation's: its issue, not the end it had before (the same when the first
  // date offered is the term's own last issue, as for the seeded subscription).
  await expect(endsWith).toHaveText(issueNumber ? t('account.issue', { issueNumber }) : effectiveDate);
  const after = await subscription(page, target.id);
  expect(after.orderStatus).toBe('AK');
  expect(formatDate(after.validToOnSaleDate, locale)).toBe(effectiveDate);
  expect(after.renewal?.expiryIssueNr).toBe(issueNumber);
  await expectEndShown(page, after, locale);
  if (locale === 'en-GB') await expect(page.locator('.details-block')).not.toContainText(GERMAN_WORDS);

  // The cancellation page, loaded afresh: already cancelled, nothing to send.
  await page.goto(`/t/${TENANT}/subscriptions/${target.id}/cancellation`);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: t('cancellation.heading') })).toBeVisible();
  await expect(page.getByText(t('cancellation.alreadyCancelled'))).toBeVisible();
  await expect(page.getByRole('button', { name: t('cancellation.submit') })).toHaveCount(0);
  await expect(page.getByLabel(t('cancellation.date'))).toHaveCount(0);

  // The overview, loaded afresh: the card is cancelled and valid to the cancellation's day.
  await page.goto(`/t/${TENANT}/orders`);
  await page.reload();
  const card = page.locator('.subscription-card', { hasText: target.orderNumber });
  await expect(card.getByText(t('account.status.AK'), { exact: true })).toBeVisible();
  await expect(card.getByRole('definition').filter({ hasText: effectiveDate })).toBeVisible();
});

test('renew: the cancelled subscription renewed with an offer paid on account is active again after a reload, ends on its new date in the page language, and the offer is not listed again', async ({
  page,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const t = texts(locale);
  await signIn(page, locale);
  // The cancelled renewal subscription the cancel journey left (the demo login has no other).
  const target = (await subscriptions(page)).find(
    (s) =>
      OWN.has(s.id) &&
      s.isRenewal &&
      s.orderStatus === 'AK' &&
      s.roles.includes('AG') &&
      !s.renewal?.autoRenewal,
  );
  expect(target, 'a cancelled renewal subscription (left by the cancel journey)').toBeDefined();
  const endBefore = target!.validToOnSaleDate!;

  const title = await openSubscription(page, target!, locale);
  await expect(statusBadge(page, t('account.status.AK'))).toBeVisible();
  const offers = await offersLoadedBy(page, () =>
    page.getByRole('link', { name: t('renewal.action'), exact: true }).click(),
  );
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${target!.id}/renewal$`));
  await expect(page.getByRole('heading', { level: 1, name: t('renewal.heading') })).toBeVisible();
  // The page says beforehand what the renewal does to the cancellation.
  await expect(page.getByText(t('renewal.revokesCancellation'))).toBeVisible();
  // Paid on account (no popup): desktop by invoice, phone by direct debit — the payments the bulk
  // renewal journey of the same project leaves open. Else the next offer still open, paid online.
  const order =
    locale === 'en-GB'
      ? ['INVOICE', 'CREDIT_CARD', 'PAYPAL', 'DIRECT_DEBIT']
      : ['DIRECT_DEBIT', 'INVOICE', 'CREDIT_CARD', 'PAYPAL'];
  const offer = order.map((method) => offers.find((o) => paidBy(o) === method)).find(Boolean);
  expect(offer, `an open renewal offer among ${offers.map((o) => o.id).join(', ')}`).toBeDefined();
  note('renewed', `${target!.orderNumber} with ${offer!.id} (${paidBy(offer!)})`);
  await offerRadio(page, offer!.id).check();
  const success = page.getByRole('dialog', { name: t('renewal.successTitle') });
  await acceptAndPay(
    page,
    offer!,
    target!.orderNumber,
    locale,
    () => page.getByRole('button', { name: t('renewal.submit') }).click(),
    success,
  );
  await expect(success.getByText(t('renewal.successTextRevoked', { title }))).toBeVisible();
  await success.getByRole('button', { name: t('shell.close') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${target!.id}$`));

  await page.reload();
  await expect(statusBadge(page, t('account.status.A'))).toBeVisible();
  const after = await subscription(page, target!.id);
  expect(after.orderStatus).toBe('A');
  expect(after.validToOnSaleDate! > endBefore, `new end ${after.validToOnSaleDate} after ${endBefore}`).toBe(
    true,
  );
  // The end the portal moved is a date, worded by the screen in its own language.
  expect(after.renewal?.expiryIssueNr ?? null).toBeNull();
  await expect(fact(page, t('subscription.expiryIssue'))).toHaveText(
    formatDate(after.validToOnSaleDate, locale),
  );
  await expectEndShown(page, after, locale);
  if (locale === 'en-GB') await expect(page.locator('.details-block')).not.toContainText(GERMAN_WORDS);
  // While the renewal runs the page offers none (engine/domain/cardCapabilities.ts offersRenewal).
  expect(after.renewedUntil).toBe(after.validToOnSaleDate);
  await expect(page.locator('.action-buttons')).toBeVisible();
  await expect(page.getByRole('link', { name: t('renewal.action'), exact: true })).toHaveCount(0);

  // The renewal page, loaded afresh: the offer just accepted is not offered again.
  await page.goto(`/t/${TENANT}/subscriptions/${target!.id}/renewal`);
  const reloaded = await offersLoadedBy(page, () => page.reload());
  expect(reloaded.map((o) => o.id)).not.toContain(offer!.id);
  await expect(page.getByRole('heading', { level: 1, name: t('renewal.heading') })).toBeVisible();
  if (reloaded.length > 0) await expect(page.getByTestId('offer-card')).toHaveCount(reloaded.length);
  // While the renewal runs none is offered, and the page says until when.
  else
    await expect(
      page.getByText(t('renewal.renewedUntil', { date: formatDate(after.validToOnSaleDate, locale) })),
    ).toBeVisible();
  await expect(offerRadio(page, offer!.id)).toHaveCount(0);
  if (locale === 'en-GB') await expect(page.locator('.offer-flow')).not.toContainText(GERMAN_WORDS);

  // The overview, loaded afresh: active again, valid to the new end.
  await page.goto(`/t/${TENANT}/orders`);
  await page.reload();
  const card = page.locator('.subscription-card', { hasText: target!.orderNumber });
  await expect(card.getByText(t('account.status.A'), { exact: true })).toBeVisible();
  await expect(
    card.getByRole('definition').filter({ hasText: formatDate(after.validToOnSaleDate, locale) }),
  ).toBeVisible();
  // Nor does its card: the list says until when the renewal runs, as the subscription page does.
  await expect(card.getByRole('link', { name: t('account.renew'), exact: true })).toHaveCount(0);
});

test('retention: the invoice-paid retention offer taken instead of cancelling shows as a discount after a reload and is not offered again for the same reason', async ({
  page,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const t = texts(locale);
  await signIn(page, locale);
  // An active subscription cancellable regularly without a retention discount (the renewal
  // subscription is the cancel and renew journeys').
  const candidates = (await subscriptions(page)).filter(
    (s) =>
      OWN.has(s.id) &&
      REGULAR.has(s.id) &&
      !s.isRenewal &&
      s.orderStatus === 'A' &&
      s.isCancelable &&
      s.salesDocumentType !== 'WBZA' &&
      s.roles.includes('AG') &&
      CANCELLABLE_PUBLICATIONS.has(s.publication) &&
      !s.retentionOffer,
  );
  // Its retention offers still open: one a year per subscription (another journey may have taken one).
  let target: (typeof candidates)[number] | undefined;
  for (const s of candidates) {
    if ((await retentionOfferIds(page, TENANT, s.id, 'PREIS')).includes(`${s.publication}-KEEP-HALF`)) {
      target = s;
      break;
    }
  }
  expect(target, 'a cancellable subscription whose retention offers are open').toBeDefined();
  const keepHalf = `${target!.publication}-KEEP-HALF`;

  const title = await openSubscription(page, target!, locale);
  await page.getByRole('link', { name: t('cancellation.action'), exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: t('cancellation.heading') })).toBeVisible();
  await expect(page.getByLabel(t('cancellation.reason'))).toHaveValue('PREIS');
  const region = page.getByRole('region', { name: t('cancellation.offers.heading') });
  await offerRadio(region, keepHalf).check();
  const chosen = region.getByTestId('offer-card').filter({ has: offerRadio(page, keepHalf) });
  const description = (await chosen.locator('.offer-description').textContent())!;
  note('retained', `${target!.orderNumber} with ${keepHalf}`);
  await region.getByRole('button', { name: t('cancellation.offers.take'), exact: true }).click();
  const confirm = page.getByRole('dialog', { name: t('cancellation.offers.confirmTitle') });
  await expect(confirm).toContainText(description);
  const success = page.getByRole('dialog', { name: t('cancellation.offers.successTitle') });
  await acceptAndPay(
    page,
    { id: keepHalf, description, paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }] },
    target!.orderNumber,
    locale,
    () => confirm.getByRole('button', { name: t('cancellation.offers.confirmYes') }).click(),
    success,
  );
  await expect(success.getByText(t('cancellation.offers.successText', { title }))).toBeVisible();
  await success.getByRole('button', { name: t('shell.close') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${target!.id}$`));

  await page.reload();
  await expect(statusBadge(page, t('account.status.A'))).toBeVisible();
  const after = await subscription(page, target!.id);
  expect(after.orderStatus).toBe('A');
  expect(after.retentionOffer).toMatchObject({
    discountPercent: 50,
    until: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  });
  await expect(fact(page, t('subscription.retentionOffer'))).toHaveText(
    t('subscription.retentionOfferValue', {
      percent: 50,
      date: formatDate(after.retentionOffer!.until, locale),
    }),
  );
  // Kept, not cancelled: the end is what it was.
  expect(after.validToOnSaleDate).toBe(target!.validToOnSaleDate);
  await expectEndShown(page, after, locale);
  if (locale === 'en-GB') await expect(page.locator('.details-block')).not.toContainText(GERMAN_WORDS);

  // The cancellation page, loaded afresh: neither reason that offered it (ZEIT, then PREIS again) offers it now.
  await page.goto(`/t/${TENANT}/subscriptions/${target!.id}/cancellation`);
  await page.reload();
  const reason = page.getByLabel(t('cancellation.reason'));
  await expect(reason).toHaveValue('PREIS');
  for (const code of ['ZEIT', 'PREIS']) {
    await reason.selectOption(code);
    // The infos of that reason are on screen: its remaining offers, or the cancellation form.
    await expect(region.or(page.getByLabel(t('cancellation.date')))).toBeVisible();
    await expect(page.getByText(description)).toHaveCount(0);
    await expect(offerRadio(page, keepHalf)).toHaveCount(0);
  }
  if (locale === 'en-GB') await expect(page.locator('.cancellation')).not.toContainText(GERMAN_WORDS);
});

test('upgrade: an upgrade taken without a payment popup shows on the subscription page after a reload and is not offered again', async ({
  page,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const t = texts(locale);
  await signIn(page, locale);
  // An active subscription the tenant upgrades, not print + digital already, without a planned upgrade.
  const target = (await subscriptions(page)).find(
    (s) =>
      OWN.has(s.id) &&
      !s.isRenewal &&
      s.orderStatus === 'A' &&
      s.roles.includes('AG') &&
      !UPGRADE_BLACKLIST.includes(s.publication) &&
      s.mixType !== 'KO' &&
      !s.plannedUpgrade,
  );
  expect(target, 'an upgradeable subscription without a planned upgrade').toBeDefined();

  const title = await openSubscription(page, target!, locale);
  const offers = await offersLoadedBy(page, () =>
    page.getByRole('link', { name: t('upgrade.action'), exact: true }).click(),
  );
  await expect(page.getByRole('heading', { level: 1, name: t('upgrade.heading') })).toBeVisible();
  // Payable without the card popup (the next-cycle upgrade, by invoice), else by card in the popup.
  const onAccount = (o: Offer) => paidBy(o) === 'INVOICE' || paidBy(o) === 'DIRECT_DEBIT';
  const offer = offers.find(onAccount) ?? offers[0];
  expect(offer, 'an upgrade offer').toBeDefined();
  note('upgraded', `${target!.orderNumber} with ${offer.id} (${paidBy(offer)})`);
  await offerRadio(page, offer.id).check();
  const success = page.getByRole('dialog', { name: t('upgrade.successTitle') });
  await acceptAndPay(
    page,
    offer,
    target!.orderNumber,
    locale,
    () => page.getByRole('button', { name: t('upgrade.submit') }).click(),
    success,
  );
  // An upgrade from the next period is planned, not made: the success says so (§9 upgrade time).
  const successText =
    offer.upgradeOption?.upgradeTime === 'NEXT_CYCLE'
      ? 'upgrade.successTextNextCycle'
      : 'upgrade.successText';
  await expect(success.getByText(t(successText, { title }))).toBeVisible();
  await success.getByRole('button', { name: t('shell.close') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${target!.id}$`));

  await page.reload();
  await expect(statusBadge(page, t('account.status.A'))).toBeVisible();
  const after = await subscription(page, target!.id);
  const bundle = t('account.mixType.KO');
  if (offer.upgradeOption?.upgradeTime === 'NEXT_CYCLE') {
    expect(after.plannedUpgrade).toMatchObject({
      mixType: 'KO',
      from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    await expect(fact(page, t('subscription.plannedUpgrade'))).toHaveText(
      t('subscription.plannedUpgradeValue', {
        mixType: bundle,
        date: formatDate(after.plannedUpgrade!.from, locale),
      }),
    );
  } else {
    expect(after.mixType).toBe('KO');
    await expect(fact(page, t('subscription.mixType'))).toHaveText(bundle);
  }
  await expectEndShown(page, after, locale);
  if (locale === 'en-GB') await expect(page.locator('.details-block')).not.toContainText(GERMAN_WORDS);

  // The upgrade page, loaded afresh: the upgrade taken is not offered again.
  await page.goto(`/t/${TENANT}/subscriptions/${target!.id}/upgrade`);
  const reloaded = await offersLoadedBy(page, () => page.reload());
  expect(reloaded.map((o) => o.id)).not.toContain(offer.id);
  await expect(page.getByRole('heading', { level: 1, name: t('upgrade.heading') })).toBeVisible();
  if (reloaded.length > 0) await expect(page.getByTestId('offer-card')).toHaveCount(reloaded.length);
  // With none left, a planned upgrade is named rather than "no upgrade options".
  else if (after.plannedUpgrade)
    await expect(
      page.getByText(
        t('upgrade.planned', { mixType: bundle, date: formatDate(after.plannedUpgrade.from, locale) }),
      ),
    ).toBeVisible();
  else await expect(page.getByText(t('upgrade.empty'))).toBeVisible();
  await expect(offerRadio(page, offer.id)).toHaveCount(0);
  if (locale === 'en-GB') await expect(page.locator('.offer-flow')).not.toContainText(GERMAN_WORDS);
});
