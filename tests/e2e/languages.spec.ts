/**
 * One language at a time (docs/operators.md "Languages: one at a time"): a bilingual tenant shows
 * every label, its own content (announcement, menu links) and the order system's words in the
 * language of the screen; a tenant that offers one language stays in it whatever `?lang` says; and
 * the language a visitor picks on the login page survives sign-in, also through a magic link opened
 * in a new tab.
 */
import { expect, test, type Page } from '@playwright/test';
import { linkIn, MAGIC_LINK_SUBJECT, openPhoneMenu, waitForMail } from './support';

const DEMO_EMAIL = 'demo@portal.example';
const DEMO_PASSWORD = 'Lesen2026';
const ENGLISH = {
  emailLabel: 'E-mail address',
  sendLink: 'Send login link',
  linkSent: /Please check your inbox/,
};
const GERMAN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};

/** Words of the order system's and the engine's German labels that must not reach an English screen. */
const GERMAN_WORDS =
  /\b(monatlich|vierteljährlich|halbjährlich|jährlich|Ausgabe|Heftarchiv|Digital-Zugang|Kombi|Mitgliedschaft|Stadtausgabe|Leserclub|endet mit)\b/;
/** …and the English ones that must not reach a German screen. */
const ENGLISH_WORDS =
  /\b(monthly|quarterly|half-yearly|yearly|Issue|issue|Print edition|Digital edition|Online access|Membership|Readers' Club|ends with|Spring seed swap)\b/;

interface ApiSubscription {
  id: string;
  displayName: string;
  roles: string[];
  billingFrequency?: string | null;
  nextIssue: { issueNumber: string | null } | null;
}

/** Asks for a magic link on the open login page and returns the link from the outbox. */
async function requestLink(
  page: Page,
  tenant: string,
  texts: typeof ENGLISH,
): Promise<{ link: string; subject: string }> {
  const since = new Date().toISOString();
  const form = page.locator('form', { has: page.getByRole('button', { name: texts.sendLink }) });
  await form.getByLabel(texts.emailLabel).fill(DEMO_EMAIL);
  await form.getByRole('button', { name: texts.sendLink }).click();
  await expect(page.getByText(texts.linkSent)).toBeVisible();
  const mail = await waitForMail(page.request, tenant, DEMO_EMAIL, since, MAGIC_LINK_SUBJECT);
  return { link: linkIn(mail.text), subject: mail.subject };
}

/** Signs in from the login page in the given language (opened with ?lang=), through the link in the same tab. */
async function signInIn(page: Page, tenant: string, lang: 'de' | 'en') {
  await page.goto(`/t/${tenant}/login?lang=${lang}`);
  const { link } = await requestLink(page, tenant, lang === 'en' ? ENGLISH : GERMAN);
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`/t/${tenant}/orders$`));
}

/** The visible text of the page's main content and navigation (not the browser chrome). */
async function visibleText(page: Page): Promise<string> {
  return page.locator('body').innerText();
}

/** The session's subscriptions as the screens ask for them, in the screen's language. */
async function subscriptionsIn(page: Page, tenant: string, locale: string): Promise<ApiSubscription[]> {
  return page.evaluate(
    async ([id, language]) => {
      const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${id}`) ?? '{}');
      const response = await fetch(`/t/${id}/api/subscriptions`, {
        headers: { 'x-auth-token': auth.accessToken, 'accept-language': language },
      });
      return response.json();
    },
    [tenant, locale],
  );
}

/** A subscription of the session with a billing frequency (the ordering party sees it) and a next issue, else any. */
async function detailOf(page: Page, tenant: string, locale: string): Promise<ApiSubscription> {
  const all = await subscriptionsIn(page, tenant, locale);
  const fitting =
    all.find((s) => s.roles.includes('AG') && s.billingFrequency && s.nextIssue?.issueNumber) ??
    all.find((s) => s.roles.includes('AG') && s.billingFrequency);
  expect(fitting, 'a subscription the demo login orders and pays').toBeDefined();
  return fitting!;
}

const fact = (page: Page, label: string) =>
  page
    .locator('.details-block .fact')
    .filter({ has: page.getByRole('term').getByText(label, { exact: true }) })
    .getByRole('definition');

test.describe('one language at a time', () => {
  test('technikwelt in English: orders and a subscription show no German label, announcement or menu link', async ({
    page,
    isMobile,
  }) => {
    await signInIn(page, 'technikwelt', 'en');
    await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
    // The tenant's own content in English: announcement and menu links.
    await expect(page.locator('.announcement')).toContainText('now comes with our test lab database');
    await expect(page.locator('.announcement')).not.toContainText('Testlabor');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    // Phones fold the menu behind its toggle, which may draw after the page (isVisible does not wait).
    if (isMobile) await openPhoneMenu(page);
    await expect(menu.getByRole('link', { name: 'Back issues' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Heftarchiv' })).toHaveCount(0);
    await expect(page.locator('.subscription-card').first()).toBeVisible();
    expect(await visibleText(page)).not.toMatch(GERMAN_WORDS);

    const s = await detailOf(page, 'technikwelt', 'en-GB');
    await page.goto(`/t/technikwelt/subscriptions/${s.id}`);
    await expect(page.getByRole('heading', { level: 1, name: s.displayName })).toBeVisible();
    await expect(fact(page, 'Billing')).toHaveText(/^(monthly|quarterly|half-yearly|yearly)$/);
    if (s.nextIssue?.issueNumber)
      await expect(fact(page, 'Next issue')).toContainText(`Issue ${s.nextIssue.issueNumber}`);
    await expect(fact(page, 'Format')).not.toHaveText(/E-Paper|Digital-Zugang|Kombi/);
    // The delivered issues, folded under their heading, are labelled in English too.
    await page.getByRole('heading', { name: 'Delivered issues' }).click();
    expect(await visibleText(page)).not.toMatch(GERMAN_WORDS);
    await page.screenshot({ path: test.info().outputPath('technikwelt-en-detail.png'), fullPage: true });
  });

  test('gartenfreunde in German: orders and a subscription show no English label or announcement', async ({
    page,
  }) => {
    await signInIn(page, 'gartenfreunde', 'de');
    await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await expect(page.locator('.announcement')).toContainText('Frühjahrs-Saatguttausch');
    await expect(page.locator('.subscription-card').first()).toBeVisible();
    expect(await visibleText(page)).not.toMatch(ENGLISH_WORDS);

    const s = await detailOf(page, 'gartenfreunde', 'de-DE');
    await page.goto(`/t/gartenfreunde/subscriptions/${s.id}`);
    await expect(page.getByRole('heading', { level: 1, name: s.displayName })).toBeVisible();
    await expect(fact(page, 'Abrechnung')).toHaveText(/^(monatlich|vierteljährlich|halbjährlich|jährlich)$/);
    if (s.nextIssue?.issueNumber)
      await expect(fact(page, 'Nächste Ausgabe')).toContainText(`Ausgabe ${s.nextIssue.issueNumber}`);
    expect(await visibleText(page)).not.toMatch(ENGLISH_WORDS);
    await page.screenshot({ path: test.info().outputPath('gartenfreunde-de-detail.png'), fullPage: true });
  });

  test('stadtkurier offers only German: ?lang=en stays German, with no language button', async ({ page }) => {
    await page.goto('/t/stadtkurier/faq?lang=en');
    await expect(page.getByRole('heading', { level: 1, name: 'Häufige Fragen' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await expect(page.locator('.announcement')).toContainText('Zustellung am Samstag');
    await expect(page.getByRole('button', { name: /Switch to English|Auf Deutsch wechseln/ })).toHaveCount(0);
    await page.goto('/t/stadtkurier/login?lang=en');
    await expect(page.getByRole('button', { name: GERMAN.sendLink })).toBeVisible();
    await expect(page.getByText('Neu hier? Mit Ihrer Auftragsnummer')).toBeVisible();
  });

  test('English picked on the login page survives a magic link opened in a new tab, a reload and the e-mail', async ({
    page,
    context,
  }) => {
    await page.goto('/t/technikwelt/login');
    await expect(page.getByRole('button', { name: GERMAN.sendLink })).toBeVisible();
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect(page.getByRole('button', { name: ENGLISH.sendLink })).toBeVisible();
    await expect(page.getByText('Have a TechnikWelt account? Log in with single sign-on.')).toBeVisible();
    const { link, subject } = await requestLink(page, 'technikwelt', ENGLISH);
    expect(subject).toMatch(/Your login link/);
    expect(new URL(link).searchParams.get('lang')).toBe('en');

    // The mail program opens the link in a new tab.
    const tab = await context.newPage();
    await tab.goto(link);
    await expect(tab).toHaveURL(/\/t\/technikwelt\/orders$/);
    await expect(tab.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
    await tab.reload();
    await expect(tab.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
    await expect(tab.locator('html')).toHaveAttribute('lang', 'en-GB');
  });

  test('the link carries the language to another browser, and German picked for a password sign-in stays German', async ({
    page,
    browser,
  }) => {
    await page.goto('/t/technikwelt/login?lang=en');
    const { link } = await requestLink(page, 'technikwelt', ENGLISH);
    // Another browser (no remembered choice): the link's lang decides.
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await other.goto(link);
    await expect(other.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible();
    await elsewhere.close();

    // northern-review is English by default; German picked on the login page, then a password sign-in.
    await page.goto('/t/northern-review/login');
    await page.getByRole('button', { name: 'Auf Deutsch wechseln' }).click();
    const form = page.getByRole('form', { name: 'Anmelden mit Passwort' });
    await form.getByLabel('E-Mail-Adresse').fill(DEMO_EMAIL);
    await form.getByLabel('Passwort').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL(/\/t\/northern-review\/orders$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Meine Bestellungen' })).toBeVisible();
  });
});
