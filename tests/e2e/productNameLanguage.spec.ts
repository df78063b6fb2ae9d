/**
 * One language per screen (docs/operators.md "Languages: one at a time"): every name the order
 * system writes — subscriptions and memberships, pending orders, the subscriptions on the addresses
 * page — shows in the language of the screen, follows the flag button without a reload of the page,
 * and the language chosen with the flag wins over a `?lang` left in the address. On technikwelt
 * (German, with English), as Lena Wagner (pending orders, a membership, partners): at 360 px
 * starting in German, at 1280 px starting in English.
 */
import { expect, test, type Page } from '@playwright/test';
import { linkIn, MAGIC_LINK_SUBJECT, waitForMail } from './support';

const TENANT = 'technikwelt';
const EMAIL = 'lena.wagner@technikwelt.example';

type Lang = 'de' | 'en';
const LOCALE: Record<Lang, string> = { de: 'de-DE', en: 'en-GB' };
const OTHER: Record<Lang, Lang> = { de: 'en', en: 'de' };
const TEXTS = {
  de: {
    emailLabel: 'E-Mail-Adresse',
    sendLink: 'Anmeldelink senden',
    linkSent: /Bitte prüfen Sie Ihr Postfach/,
    orders: 'Meine Bestellungen',
    addresses: 'Meine Adressen',
    addressesMenu: 'Adressen',
  },
  en: {
    emailLabel: 'E-mail address',
    sendLink: 'Send login link',
    linkSent: /Please check your inbox/,
    orders: 'My orders',
    addresses: 'My addresses',
    addressesMenu: 'Addresses',
  },
};

/** The language each width starts in: German on the phone, English on the desktop. */
const startLanguage = (project: string): Lang => (project === 'phone' ? 'de' : 'en');

/** Signs in by magic link from the login page opened in `lang`; the link carries the language. */
async function signIn(page: Page, lang: Lang) {
  const since = new Date().toISOString();
  await page.goto(`/t/${TENANT}/login?lang=${lang}`);
  const texts = TEXTS[lang];
  const form = page.locator('form', { has: page.getByRole('button', { name: texts.sendLink }) });
  await form.getByLabel(texts.emailLabel).fill(EMAIL);
  await form.getByRole('button', { name: texts.sendLink }).click();
  await expect(page.getByText(texts.linkSent)).toBeVisible();
  const mail = await waitForMail(page.request, TENANT, EMAIL, since, MAGIC_LINK_SUBJECT);
  await page.goto(linkIn(mail.text));
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/orders$`));
  await expect(page.locator('html')).toHaveAttribute('lang', LOCALE[lang]);
}

/** An API answer with the page's session, in the given language (as the screens ask for it). */
async function apiGet<T>(page: Page, path: string, lang: Lang): Promise<T> {
  return page.evaluate(
    async ([tenant, apiPath, locale]) => {
      const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${tenant}`) ?? '{}');
      const response = await fetch(`/t/${tenant}/api${apiPath}`, {
        headers: { 'x-auth-token': auth.accessToken, 'accept-language': locale },
      });
      return response.json();
    },
    [TENANT, path, LOCALE[lang]] as const,
  );
}

interface Names {
  /** A subscription or membership whose name differs between the languages, by id. */
  subscription: { id: string; name: Record<Lang, string> };
  membership: Record<Lang, string>;
  pending: Record<Lang, string[]>;
  partners: Record<Lang, string[]>;
}

/** The order system's names in both languages, as the server answers them. */
async function namesOf(page: Page): Promise<Names> {
  type Sub = { id: string; displayName: string; mixType: string };
  type Pending = { title: string };
  type Partner = { subscriptions: Array<{ displayName: string }> };
  const subs = {
    de: await apiGet<Sub[]>(page, '/subscriptions', 'de'),
    en: await apiGet<Sub[]>(page, '/subscriptions', 'en'),
  };
  const named = (mixType: string) => {
    const s = subs.de.find((candidate) => candidate.mixType === mixType)!;
    return {
      id: s.id,
      name: { de: s.displayName, en: subs.en.find((candidate) => candidate.id === s.id)!.displayName },
    };
  };
  const pending = {
    de: await apiGet<Pending[]>(page, '/pending-orders', 'de'),
    en: await apiGet<Pending[]>(page, '/pending-orders', 'en'),
  };
  const partners = {
    de: await apiGet<Partner[]>(page, '/business-partners', 'de'),
    en: await apiGet<Partner[]>(page, '/business-partners', 'en'),
  };
  const partnerNames = (lang: Lang) => [
    ...new Set(partners[lang].flatMap((p) => p.subscriptions.map((s) => s.displayName))),
  ];
  return {
    subscription: named('DE'),
    membership: named('MG').name,
    pending: { de: pending.de.map((p) => p.title), en: pending.en.map((p) => p.title) },
    partners: { de: partnerNames('de'), en: partnerNames('en') },
  };
}

/** Names that are the same in both languages (a publication's own name) say nothing about the language. */
function differing(names: Record<Lang, string[]>): Record<Lang, string[]> {
  const de = names.de.filter((name) => !names.en.includes(name));
  const en = names.en.filter((name) => !names.de.includes(name));
  return { de, en };
}

/** The flag button, as a person uses it; the page must not load again. */
async function switchLanguage(page: Page, to: Lang) {
  await page.locator('.language-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('lang', LOCALE[to]);
}

async function expectOnlyLanguage(page: Page, lang: Lang, shown: string[], hidden: string[]) {
  const main = page.locator('main');
  for (const name of shown)
    await expect(main.getByText(name, { exact: true }).first(), `"${name}" in ${lang}`).toBeVisible();
  for (const name of hidden) await expect(main, `"${name}" is the other language's`).not.toContainText(name);
}

/** Opens a menu item as a person would: on a phone the menu opens first. */
async function openMenuItem(page: Page, name: string) {
  const link = page.locator('nav.sidebar').getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) await page.locator('.sidebar-toggle').click();
  await link.click();
}

test.describe('names of the order system follow the language of the screen', () => {
  test('orders, pending orders, a subscription and the addresses page switch their product names with the flag, without a reload', async ({
    page,
  }, testInfo) => {
    const a = startLanguage(testInfo.project.name);
    const b = OTHER[a];
    await signIn(page, a);
    const names = await namesOf(page);
    const pending = differing(names.pending);
    const partners = differing(names.partners);
    // The order system gave these names in both languages: the test means something only then.
    expect(names.subscription.name.de).not.toBe(names.subscription.name.en);
    expect(names.membership.de).not.toBe(names.membership.en);
    expect(pending[a].length).toBeGreaterThan(0);
    expect(partners[a].length).toBeGreaterThan(0);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    // Orders with the pending orders, in the language of the start.
    await expect(page.getByRole('heading', { level: 1, name: TEXTS[a].orders })).toBeVisible();
    await expectOnlyLanguage(
      page,
      a,
      [names.subscription.name[a], names.membership[a], ...pending[a]],
      [names.subscription.name[b], names.membership[b], ...pending[b]],
    );
    await page.screenshot({ path: testInfo.outputPath(`orders-${a}.png`), fullPage: true });

    // The flag: the same page, its names in the other language.
    await switchLanguage(page, b);
    await expect(page.getByRole('heading', { level: 1, name: TEXTS[b].orders })).toBeVisible();
    await expectOnlyLanguage(
      page,
      b,
      [names.subscription.name[b], names.membership[b], ...pending[b]],
      [names.subscription.name[a], names.membership[a], ...pending[a]],
    );
    await page.screenshot({ path: testInfo.outputPath(`orders-${b}.png`), fullPage: true });

    // The subscription page, reached by its card, and switched back.
    await page.locator(`a[href$="/subscriptions/${names.subscription.id}"]`).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(names.subscription.name[b]);
    await switchLanguage(page, a);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(names.subscription.name[a]);
    await expect(page.locator('main')).not.toContainText(names.subscription.name[b]);
    await page.screenshot({ path: testInfo.outputPath(`subscription-${a}.png`), fullPage: true });

    // The addresses page: every subscription of every partner in the language shown, before and after the flag.
    await openMenuItem(page, TEXTS[a].addressesMenu);
    await expect(page.getByRole('heading', { level: 1, name: TEXTS[a].addresses })).toBeVisible();
    const partnerLines = (lang: Lang) =>
      partners[lang].map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+\\)$`));
    const main = page.locator('main');
    for (const line of partnerLines(a)) await expect(main.getByText(line).first()).toBeVisible();
    for (const line of partnerLines(b)) await expect(main.getByText(line)).toHaveCount(0);
    await switchLanguage(page, b);
    await expect(page.getByRole('heading', { level: 1, name: TEXTS[b].addresses })).toBeVisible();
    for (const line of partnerLines(b)) await expect(main.getByText(line).first()).toBeVisible();
    for (const line of partnerLines(a)) await expect(main.getByText(line)).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`addresses-${b}.png`), fullPage: true });

    // Back to the orders by the menu: the shared lists were fetched again in the new language.
    await openMenuItem(page, b === 'de' ? 'Bestellungen' : 'Orders');
    await expectOnlyLanguage(
      page,
      b,
      [names.membership[b], ...pending[b]],
      [names.membership[a], ...pending[a]],
    );
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
  });

  test('the language chosen with the flag wins over a ?lang left in the address, also after a reload', async ({
    page,
  }, testInfo) => {
    const a = startLanguage(testInfo.project.name);
    const b = OTHER[a];
    await signIn(page, a);
    const pending = differing((await namesOf(page)).pending);

    // A link with ?lang=<b> is followed, and the parameter leaves the address once applied.
    await page.goto(`/t/${TENANT}/orders?lang=${b}`);
    await expect(page.locator('html')).toHaveAttribute('lang', LOCALE[b]);
    await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/orders$`));
    await expectOnlyLanguage(page, b, pending[b], pending[a]);

    // The visitor chooses <a>; a reload keeps it, product names included.
    await switchLanguage(page, a);
    await expectOnlyLanguage(page, a, pending[a], pending[b]);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', LOCALE[a]);
    await expect(page.getByRole('heading', { level: 1, name: TEXTS[a].orders })).toBeVisible();
    await expectOnlyLanguage(page, a, pending[a], pending[b]);

    // The order-number example of the link form is the image of the language shown.
    await page.goto(`/t/${TENANT}/link-subscription`);
    const example = page.locator('img.order-number-example');
    await expect(example).toBeVisible();
    expect(decodeURIComponent((await example.getAttribute('src')) ?? '')).toContain(
      a === 'de' ? 'Auftrag 4012345678' : 'Order no. 4012345678',
    );
    await switchLanguage(page, b);
    await expect
      .poll(async () => decodeURIComponent((await example.getAttribute('src')) ?? ''))
      .toContain(b === 'de' ? 'Auftrag 4012345678' : 'Order no. 4012345678');
    await page.screenshot({ path: testInfo.outputPath(`link-form-${b}.png`), fullPage: true });
  });
});
