/**
 * Journeys of the e-card, the e-mail widget and the opt-in widget (account-flows.md §2 "E-card",
 * "Email widget", "Opt-in widget", §5, §8, §9) on technikwelt, which has all three, in German and
 * British English:
 *  - a timed e-card (the earliest moment, one day ahead) that arrives at its time — the server's
 *    e-card job runs 25 hours ahead in the end-to-end server (playwright.config.ts) — and a card
 *    sent at once from the subscription page;
 *  - the e-mail widget: the neutral answer, the link mailed to the address on record, and the
 *    rewards with a download on the page the link opens;
 *  - the opt-in widget: the confirmation mail, the voucher code on the page its link opens, the
 *    exhausted provider's phone-support message and an unknown provider's fallback contact.
 * Desktop and phone run one after the other against one server: each uses addresses of its own.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { linkIn, screenTexts, signInByMagicLink, subscriptionsOfSession, waitForMail } from './support';

const TEXT_FILES = [
  'core/texts.json',
  'account/texts.json',
  'features/subscription/texts.json',
  'features/e-card/texts.json',
  'features/email-widget/texts.json',
  'features/opt-in-widget/texts.json',
];
/** The screens' own texts, so a journey reads what the subscriber reads. */
const texts = screenTexts(TEXT_FILES);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));

const TENANT = 'technikwelt';
const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const DEMO_EMAIL = 'demo@portal.example';
const own = (testInfo: TestInfo, name: string) =>
  `${name}-${testInfo.project.name}-${Date.now()}@friends.example`;

/** A full-page screenshot in the test's output folder, for a person to look at (test-results/). */
const snapshot = (page: Page, testInfo: TestInfo, name: string) =>
  page.screenshot({
    path: process.env.E2E_SHOTS_DIR
      ? `${process.env.E2E_SHOTS_DIR}/${testInfo.project.name}-${name}.png`
      : testInfo.outputPath(`${name}.png`),
    fullPage: true,
  });

async function noHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page wider than the viewport').toBeLessThanOrEqual(clientWidth);
}

test.describe('e-card', () => {
  test('a timed card, one day ahead, arrives at its time with its image (German)', async ({
    page,
  }, testInfo) => {
    const t = texts('de-DE');
    await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
    await page.goto(`/t/${TENANT}/e-card`);
    await expect(page.getByRole('heading', { level: 1, name: t('e-card.heading') })).toBeVisible();
    // The category filter narrows the designs; every design shows its real image.
    await page.getByLabel(t('e-card.category')).selectOption({ label: t('e-card.category.thanks') });
    await expect(
      page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(t('e-card.category.thanks'))},`) }),
    ).toHaveCount(1);
    await expect(
      page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(t('e-card.category.birthday'))},`) }),
    ).toHaveCount(0);
    // The chosen birthday design is hidden by the filter: the category's own first design is chosen
    // with it, so the preview and the card sent are the one shown chosen.
    await expect(
      page.getByRole('radio', {
        name: t('e-card.templateLabel', { category: t('e-card.category.thanks'), number: 1 }),
      }),
    ).toBeChecked();
    const preview = page.getByRole('img', {
      name: t('e-card.previewAlt', { category: t('e-card.category.thanks') }),
    });
    await expect(preview).toBeVisible();
    expect(
      await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    ).toBeGreaterThan(100);
    const recipient = own(testInfo, 'timed');
    await field(page, t('e-card.from')).fill('Alex');
    await field(page, t('e-card.to')).fill('Sam');
    await field(page, t('e-card.toEmail')).fill(recipient);
    await field(page, t('e-card.message')).fill('Danke für alles!\nBis bald.');
    await expect(page.getByRole('figure').getByText(/Danke für alles!/)).toBeVisible();
    await page.getByRole('radio', { name: t('e-card.timed') }).check();
    // The time input is on and starts at the earliest moment, one day ahead.
    const sendAt = field(page, t('e-card.sendAt'));
    await expect(sendAt).toBeEnabled();
    const chosen = await sendAt.inputValue();
    expect(Date.parse(chosen) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'e-card-form');
    const since = new Date().toISOString();
    await page.getByRole('button', { name: t('e-card.schedule') }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /Ihre E-Card wird am .+ verschickt\./ }),
    ).toBeVisible();
    // Nothing went yet: the card waits for its time, which the job's clock reaches within seconds here.
    const mail = await waitForMail(
      page.request,
      TENANT,
      recipient,
      since,
      /^Alex hat Ihnen eine E-Card geschickt$/,
    );
    expect(mail.text).toContain('Danke für alles!');
    expect(mail.text).toContain('Liebe(r) Sam');
  });

  test('a card timed a month ahead waits under the timed cards until "Do not send" deletes it (English)', async ({
    page,
  }, testInfo) => {
    const t = texts('en-GB');
    await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
    await page.goto(`/t/${TENANT}/e-card?lang=en`);
    await expect(page.getByRole('heading', { level: 1, name: t('e-card.heading') })).toBeVisible();
    const to = `Robin ${testInfo.project.name}`;
    await field(page, t('e-card.from')).fill('Alex');
    await field(page, t('e-card.to')).fill(to);
    await field(page, t('e-card.toEmail')).fill(own(testInfo, 'month-ahead'));
    await field(page, t('e-card.message')).fill('See you next month!');
    await page.getByRole('radio', { name: t('e-card.timed') }).check();
    // A month ahead: far beyond the end-to-end server's e-card clock (25 hours ahead), so it waits.
    const inAMonth = new Date(Date.now() + 30 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await field(page, t('e-card.sendAt')).fill(
      `${inAMonth.getFullYear()}-${pad(inAMonth.getMonth() + 1)}-${pad(inAMonth.getDate())}T10:00`,
    );
    await page.getByRole('button', { name: t('e-card.schedule') }).click();
    await expect(page.getByRole('status').filter({ hasText: /Your e-card will be sent on/ })).toBeVisible();

    const timed = page.getByRole('region', { name: t('e-card.scheduledList.heading') });
    const entry = timed.getByRole('listitem').filter({ hasText: t('e-card.scheduledList.to', { to }) });
    await expect(entry).toBeVisible();
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'e-card-timed-list');
    // It survives a reload: the list comes from the server.
    await page.reload();
    await expect(entry).toBeVisible();
    await entry
      .getByRole('button', { name: new RegExp(`^${escapeRegExp(t('e-card.scheduledList.cancel'))}`) })
      .click();
    const dialog = page.getByRole('dialog', { name: t('e-card.scheduledList.confirmTitle') });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: t('e-card.scheduledList.confirm') }).click();
    await expect(page.getByText(t('e-card.scheduledList.cancelled', { to }))).toBeVisible();
    await expect(entry).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: t('e-card.heading') })).toBeVisible();
    await expect(page.getByText(t('e-card.scheduledList.to', { to }))).toHaveCount(0);
  });

  test("a card sent at once from a subscription's e-card page (English)", async ({ page }, testInfo) => {
    const t = texts('en-GB');
    await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
    const [first] = await subscriptionsOfSession(page, TENANT);
    // portal-core.md §6 "e-card: never by this rule set": the subscription page offers none; the
    // tenant-gated route opens from a link.
    await page.goto(`/t/${TENANT}/subscriptions/${first.id}?lang=en`);
    await expect(
      page.getByRole('heading', { level: 2, name: t('subscription.actionsHeading') }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: t('e-card.heading'), exact: true })).toHaveCount(0);
    await page.goto(`/t/${TENANT}/subscriptions/${first.id}/e-card?lang=en`);
    await expect(page.getByRole('heading', { level: 1, name: t('e-card.heading') })).toBeVisible();
    // Sending without the required fields names each of them.
    await page.getByRole('button', { name: t('e-card.send') }).click();
    await expect(page.getByText(t('e-card.error.required')).first()).toBeVisible();
    const recipient = own(testInfo, 'now');
    await field(page, t('e-card.from')).fill('Alex');
    await field(page, t('e-card.to')).fill('Robin');
    await field(page, t('e-card.toEmail')).fill(recipient);
    await field(page, t('e-card.message')).fill('Happy birthday, Robin!');
    await noHorizontalOverflow(page);
    const since = new Date().toISOString();
    await page.getByRole('button', { name: t('e-card.send') }).click();
    await expect(page.getByRole('status').filter({ hasText: t('e-card.sent') })).toBeVisible();
    const mail = await waitForMail(page.request, TENANT, recipient, since, /^Alex has sent you an e-card$/);
    expect(mail.text).toContain('Happy birthday, Robin!');
  });
});

test.describe('e-mail widget', () => {
  test('answers neutrally and shows the rewards on the page the mailed link opens (German, then English)', async ({
    page,
    browser,
  }, testInfo) => {
    const de = texts('de-DE');
    const en = texts('en-GB');
    // The details a subscriber has: their order number and postcode (read from the demo login's own subscription).
    await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
    const mine = (await subscriptionsOfSession(page, TENANT)) as unknown as Array<{
      orderNumber: string;
      roles: string[];
      currentRoleBusinessPartner: { zipcode: string | null };
    }>;
    const s = mine.find((x) => x.roles.includes('AG') && x.currentRoleBusinessPartner.zipcode)!;
    // The visitor is someone without a session: a browser context of their own, like the project's.
    const { baseURL, viewport, isMobile, hasTouch } = testInfo.project.use;
    const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch });
    const visitor = await context.newPage();
    try {
      await visitor.goto(`/t/${TENANT}/email-widget`);
      await expect(
        visitor.getByRole('heading', { level: 1, name: de('email-widget.heading') }),
      ).toBeVisible();
      // Someone else's address with the right order number gets the same answer, and no mail.
      const since = new Date().toISOString();
      await field(visitor, de('account.entry.email')).fill('stranger@elsewhere.example');
      await field(visitor, de('account.entry.orderNumber')).fill(s.orderNumber);
      await field(visitor, de('account.entry.zipcode')).fill(s.currentRoleBusinessPartner.zipcode!);
      await visitor.getByRole('button', { name: de('email-widget.submit') }).click();
      await expect(
        visitor.getByRole('status').filter({ hasText: de('email-widget.checkInbox') }),
      ).toBeVisible();
      await visitor.getByRole('button', { name: de('account.entry.changeDetails') }).click();
      await field(visitor, de('account.entry.email')).fill(DEMO_EMAIL);
      await snapshot(visitor, testInfo, 'email-widget-form');
      await visitor.getByLabel(de('email-widget.optIn')).check();
      await visitor.getByRole('button', { name: de('email-widget.submit') }).click();
      await expect(
        visitor.getByRole('status').filter({ hasText: de('email-widget.checkInbox') }),
      ).toBeVisible();
      await noHorizontalOverflow(visitor);
      const mail = await waitForMail(visitor.request, TENANT, DEMO_EMAIL, since, /^Ihre Prämien bei /);
      const outbox = (await (
        await visitor.request.get('/outbox', { headers: { accept: 'application/json' } })
      ).json()) as Array<{ to: string; date: string }>;
      expect(outbox.filter((m) => m.to === 'stranger@elsewhere.example' && m.date >= since)).toHaveLength(0);
      // The link opens the result in English when asked to.
      await visitor.goto(linkIn(mail.text).replace(/lang=de/, 'lang=en'));
      await visitor.getByRole('button', { name: en('email-widget.open') }).click();
      await expect(
        visitor.getByRole('heading', { level: 1, name: en('email-widget.successTitle') }),
      ).toBeVisible();
      await expect(visitor.getByText('Thank you! Your rewards are ready to download.')).toBeVisible();
      await expect(visitor.getByText(s.orderNumber)).toBeVisible();
      await expect(visitor.getByRole('heading', { level: 3 })).toHaveText([
        'Desktop wallpaper',
        'Year-end reading guide',
        'Printable bookmark',
      ]);
      const download = visitor.waitForEvent('download');
      await visitor
        .getByRole('button', { name: en('email-widget.downloadNamed', { reward: 'Desktop wallpaper' }) })
        .click();
      expect((await download).suggestedFilename()).toBe('wallpaper.svg');
      await noHorizontalOverflow(visitor);
      await snapshot(visitor, testInfo, 'email-widget-rewards');
    } finally {
      await context.close();
    }
  });
});

test.describe('opt-in widget', () => {
  test('hands out the voucher code on the page the confirmation link opens (German)', async ({
    page,
  }, testInfo) => {
    const t = texts('de-DE');
    const email = own(testInfo, 'messe');
    await page.goto(`/t/${TENANT}/opt-in-widget?provider=messe`);
    await expect(page.getByRole('heading', { level: 1, name: 'Ihr Messe-Gutschein' })).toBeVisible();
    await expect(page.getByText('Schön, dass Sie an unserem Stand waren!')).toBeVisible();
    await page.getByRole('button', { name: t('opt-in-widget.submit') }).click();
    await expect(page.getByText(t('opt-in-widget.consentRequired'))).toBeVisible();
    await field(page, t('opt-in-widget.salutation')).selectOption({ index: 1 });
    await field(page, t('opt-in-widget.firstName')).fill('Mia');
    await field(page, t('opt-in-widget.lastName')).fill('Musterfrau-Langname');
    await field(page, t('account.entry.email')).fill(email);
    await page.getByLabel(/Ich möchte Angebote per E-Mail erhalten/).check();
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'opt-in-widget-form');
    const since = new Date().toISOString();
    await page.getByRole('button', { name: t('opt-in-widget.submit') }).click();
    await expect(
      page.getByRole('status').filter({ hasText: t('opt-in-widget.checkInbox', { email }) }),
    ).toBeVisible();
    // The answer holds no code: it comes with the confirmation.
    await expect(page.getByTestId('voucher-code')).toHaveCount(0);
    const mail = await waitForMail(
      page.request,
      TENANT,
      email,
      since,
      /^Bitte bestätigen Sie Ihre Anmeldung/,
    );
    await page.goto(linkIn(mail.text));
    await page.getByRole('button', { name: t('opt-in-widget.confirm') }).click();
    const code = page.getByTestId('voucher-code');
    await expect(code).toHaveText(/^MESSE-2026-[0-9A-Z]+$/);
    // One line, also at 360 px: a code broken over two lines is easily typed wrong.
    expect(
      await code.evaluate(
        (el) => el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).fontSize),
      ),
    ).toBe(true);
    await expect(page.getByText('Danke für Ihre Bestätigung!')).toBeVisible();
    await noHorizontalOverflow(page);
    await snapshot(page, testInfo, 'opt-in-widget-voucher');
    const voucherMail = await waitForMail(page.request, TENANT, email, since, /^Ihr Gutscheincode von /);
    const voucher = (await code.textContent())!;
    expect(voucherMail.text).toContain(voucher);
    // A reload of the confirmed page shows the same code, without asking for the click again.
    await page.reload();
    await expect(page.getByTestId('voucher-code')).toHaveText(voucher);
    await expect(page.getByRole('button', { name: t('opt-in-widget.confirm') })).toHaveCount(0);
  });

  test('says when codes are exhausted and shows the fallback contact for an unknown provider (English)', async ({
    page,
  }) => {
    const t = texts('en-GB');
    await page.goto(`/t/${TENANT}/opt-in-widget?provider=sommerfest&lang=en`);
    await expect(page.getByRole('heading', { level: 1, name: 'Your summer party voucher' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: t('opt-in-widget.exhausted') })).toBeVisible();
    await expect(page.getByRole('button', { name: t('opt-in-widget.submit') })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /^Phone/ })).toBeVisible();
    await page.goto(`/t/${TENANT}/opt-in-widget?provider=nobody&lang=en`);
    await expect(
      page.getByRole('heading', { level: 1, name: t('opt-in-widget.disabledTitle') }),
    ).toBeVisible();
    await expect(page.locator('.fallback-contact a')).toHaveCount(2);
  });
});
