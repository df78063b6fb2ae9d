/**
 * Flow pages opened by URL (a bookmark, a link in an e-mail, the back button after the subscription
 * changed) for a subscription their capability rule refuses (account-flows.md §6): the page names
 * the flow and the subscription, says the action is not available — and why, where the rule tells —
 * and leads back, instead of the generic load-error dialog its refused calls used to open.
 *
 * technikwelt's demo login has an active TWD subscription: digital, and blacklisted for issue
 * complaints and every holiday service (tenants/technikwelt.json publicationBlacklists).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signInByMagicLink, subscriptionsOfSession } from './support';

type Locale = 'de-DE' | 'en-GB';
const TENANT = 'technikwelt';
const DEMO_EMAIL = 'demo@portal.example';
const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};

const TEXTS = [
  'account',
  'features/subscription',
  'features/holiday-service',
  'features/issue-complaint',
].map(
  (dir) =>
    JSON.parse(readFileSync(`engine/${dir}/texts.json`, 'utf8')) as Record<Locale, Record<string, string>>,
);

/** The screens' own texts, so the journey reads what the subscriber reads. */
function texts(locale: Locale) {
  return (key: string, vars: Record<string, string> = {}) => {
    const table = TEXTS.find((t) => t[locale][key] !== undefined);
    if (!table) throw new Error(`no text ${key}`);
    return table[locale][key].replace(/\{\{(\w+)\}\}/g, (_, name) => vars[name] ?? '');
  };
}

interface ApiSubscription {
  id: string;
  displayName: string;
  publication: string;
  mixType: string;
  orderStatus: string;
}

/** The demo login's active TWD subscription, named in the page's language. */
async function refusedSubscription(page: Page): Promise<ApiSubscription> {
  const all = (await subscriptionsOfSession(page, TENANT)) as unknown as ApiSubscription[];
  const twd = all.find((s) => s.publication === 'TWD' && s.orderStatus === 'A');
  expect(twd, 'an active TWD subscription of the demo login').toBeDefined();
  expect(twd!.mixType, 'TWD is digital').not.toMatch(/^(PR|KO)$/);
  return twd!;
}

/** Back from the notice: the subscription page, with its actions. */
async function expectBackToSubscription(page: Page, t: ReturnType<typeof texts>, s: ApiSubscription) {
  await page.getByRole('button', { name: t('account.flow.back'), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/subscriptions/${s.id}$`));
  await expect(page.getByRole('region', { name: t('subscription.actionsHeading') })).toBeVisible();
  await expect(page.getByTestId('flow-unavailable')).toHaveCount(0);
}

for (const [locale, lang] of [
  ['de-DE', 'de'],
  ['en-GB', 'en'],
] as const) {
  test(`technikwelt (${lang}): the complaint and holiday pages of a subscription their rules refuse say so and lead back`, async ({
    page,
  }) => {
    const t = texts(locale);
    await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
    await page.goto(`/t/${TENANT}/orders?lang=${lang}`);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    const s = await refusedSubscription(page);

    // The subscription page offers neither (the same rules, engine/domain/capabilities.ts).
    await page.goto(`/t/${TENANT}/subscriptions/${s.id}?lang=${lang}`);
    const actions = page.getByRole('region', { name: t('subscription.actionsHeading') });
    await expect(actions).toBeVisible();
    await expect(actions.getByRole('link', { name: t('issue-complaint.action'), exact: true })).toHaveCount(
      0,
    );
    await expect(actions.getByRole('link', { name: t('holiday-service.action'), exact: true })).toHaveCount(
      0,
    );

    // The complaint page by URL: not offered for the title (tenants/technikwelt.json blacklists TWD for
    // complaints too), with the way to the customer service.
    await page.goto(`/t/${TENANT}/subscriptions/${s.id}/complaint?lang=${lang}`);
    const notice = page.getByTestId('flow-unavailable');
    await expect(page.getByRole('heading', { level: 1, name: t('issue-complaint.heading') })).toBeVisible();
    await expect(notice.getByText(t('account.flow.unavailable.title'))).toBeVisible();
    await expect(
      notice.getByText(t('account.flow.unavailable.notOffered', { title: s.displayName })),
    ).toBeVisible();
    await expect(notice.getByRole('link', { name: t('account.flow.contactUs') })).toHaveAttribute(
      'href',
      new RegExp(`/contact\\?subscriptionId=${s.id}$`),
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectBackToSubscription(page, t, s);

    // The holiday page by URL (a bookmark of the holiday-break link): the holiday page's own sentence.
    await page.goto(`/t/${TENANT}/subscriptions/${s.id}/holiday-break`);
    await expect(page).toHaveURL(new RegExp(`/subscriptions/${s.id}/holiday-service\\?service=Break$`));
    await expect(page.getByRole('heading', { level: 1, name: t('holiday-service.heading') })).toBeVisible();
    await expect(page.getByTestId('flow-unavailable').getByText(t('holiday-service.noTypes'))).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectBackToSubscription(page, t, s);
  });
}
