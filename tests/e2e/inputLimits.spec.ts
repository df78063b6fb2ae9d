/**
 * Limits that neither silently cut nor punish the honest (portal-core.md §5), as a subscriber meets
 * them: a 21-character password is kept whole and refused at the field (registration, then the SSO
 * profile), a 20-character one works; the password rule shows once and an empty repeat is asked
 * for; an order number is never cut; the IBAN field says which characters do not belong in an IBAN
 * (account-flows.md §5 mask); and a 429 on the link form says, in the screen's language, in how
 * many minutes to try again — not "something went wrong".
 *
 * Desktop (1280 px) runs in English, phone (360 px) in German; screenshots land in the test output
 * folder (or E2E_SHOTS_DIR) for a person to look at. The e2e server raises the sign-in limits
 * (playwright.config.ts): the 429 journey spends the link form's per-account budget on purpose.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { linkIn, waitForMail } from './support';

type Locale = 'de-DE' | 'en-GB';
const TENANT = 'technikwelt';
const TEXT_FILES = [
  'core',
  'account',
  'features/login',
  'features/sso-profile-page',
  'features/link-subscription',
  'features/payment-method-change',
];
const TEXTS = TEXT_FILES.map(
  (dir) =>
    JSON.parse(readFileSync(`engine/${dir}/texts.json`, 'utf8')) as Record<Locale, Record<string, string>>,
);
const TENANT_TEXTS = JSON.parse(readFileSync(`tenants/${TENANT}.json`, 'utf8')).texts ?? {};

/** The base text with the tenant's override, plural keys (`_one` / `_other`) by `count`. */
function texts(locale: Locale) {
  return (key: string, vars: Record<string, string | number> = {}) => {
    const lookup = (k: string): string | undefined =>
      TENANT_TEXTS[locale]?.[k] ?? TEXTS.find((table) => table[locale][k] !== undefined)?.[locale][k];
    const plural =
      typeof vars.count === 'number' ? lookup(`${key}_${vars.count === 1 ? 'one' : 'other'}`) : undefined;
    const text = plural ?? lookup(key);
    if (text === undefined) throw new Error(`no text ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? ''));
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A form field by its label; required labels end in an aria-hidden " *". */
const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));

const localeOf = (testInfo: TestInfo): Locale => (testInfo.project.name === 'phone' ? 'de-DE' : 'en-GB');
const langOf = (testInfo: TestInfo) => (localeOf(testInfo) === 'de-DE' ? 'de' : 'en');

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

/** The field's own error: the element its aria-describedby names. */
async function errorOf(input: Locator): Promise<string> {
  const id = await input.getAttribute('aria-describedby');
  expect(id, 'the field names its error').toBeTruthy();
  return (
    (await input
      .page()
      .locator(`[id="${id!.split(' ').at(-1)}"]`)
      .textContent()) ?? ''
  );
}

const PASSWORD_21 = 'Abcdefghij1234567890X';
const PASSWORD_20 = 'Lesen2026Lesen2026Ab';
const NEW_PASSWORD_20 = 'Neues2026Passwort20x';

/** Signs in with e-mail and password on the login page (technikwelt: the kicker account form). */
async function signInWithPassword(page: Page, locale: Locale, email: string, password: string) {
  const t = texts(locale);
  await page.goto(`/t/${TENANT}/login?lang=${locale === 'de-DE' ? 'de' : 'en'}`);
  const form = page.locator('form', {
    has: page.getByRole('button', { name: t('login.submitPassword'), exact: true }),
  });
  await field(form, t('login.emailLabel')).fill(email);
  await field(form, t('login.passwordLabel')).fill(password);
  await form.getByRole('button', { name: t('login.submitPassword'), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/orders`));
}

/** Registers a kicker account and opens its confirmation link: signed in, on /orders. */
async function registerAndSignIn(page: Page, locale: Locale, email: string, password: string) {
  const t = texts(locale);
  await page.goto(`/t/${TENANT}/login?lang=${locale === 'de-DE' ? 'de' : 'en'}`);
  await page
    .getByRole('button', { name: t('login.createAccount') })
    .first()
    .click();
  const form = page.getByRole('form', { name: t('login.createAccountTitle') });
  await field(form, t('login.displayNameLabel')).fill('Lena Lang');
  await field(form, t('login.emailLabel')).fill(email);
  await field(form, t('login.passwordLabel')).fill(password);
  await field(form, t('login.passwordConfirmLabel')).fill(password);
  const since = new Date().toISOString();
  await form.getByRole('button', { name: t('login.createAccountSubmit') }).click();
  await expect(page.getByText(t('login.registrationSentTitle'))).toBeVisible();
  const mail = await waitForMail(
    page.request,
    TENANT,
    email,
    since,
    /Bitte bestätigen Sie Ihr Konto|Please confirm your account/,
  );
  await page.goto(linkIn(mail.text));
  // The link asks for the password chosen at registration (server/auth/commands/registration.ts).
  const confirm = page.getByRole('form', { name: t('login.confirmTitle') });
  await field(confirm, t('login.passwordLabel')).fill(password);
  await confirm.getByRole('button', { name: t('login.confirmButton') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/orders`));
}

test('a 21-character password is never cut: registration and the SSO profile keep it whole, say it is too long, and a 20-character one works', async ({
  page,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const t = texts(locale);
  const email = `limits-${testInfo.project.name}-${Date.now()}@reader.example`;

  // Registration: the whole password stays in the field, the field says it is too long.
  await page.goto(`/t/${TENANT}/login?lang=${langOf(testInfo)}`);
  await page
    .getByRole('button', { name: t('login.createAccount') })
    .first()
    .click();
  const form = page.getByRole('form', { name: t('login.createAccountTitle') });
  await field(form, t('login.displayNameLabel')).fill('Lena Lang');
  await field(form, t('login.emailLabel')).fill(email);
  const password = field(form, t('login.passwordLabel'));
  await password.fill(PASSWORD_21);
  await expect(password).toHaveValue(PASSWORD_21);
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  expect(await errorOf(password)).toBe(t('shell.tooLong', { max: 20, count: 21 }));
  // The repeat left empty is asked for; the rule shows once, under the field.
  await form.getByRole('button', { name: t('login.createAccountSubmit') }).click();
  const repeat = field(form, t('login.passwordConfirmLabel'));
  await expect(repeat).toHaveAttribute('aria-invalid', 'true');
  expect(await errorOf(repeat)).toBe(t('login.passwordConfirmRequired'));
  await expect(form.getByText(t('login.passwordRule'), { exact: true })).toHaveCount(1);
  await expect(page.getByText(t('login.registrationSentTitle'))).toHaveCount(0);
  await noHorizontalOverflow(page);
  await snapshot(page, testInfo, 'registration-password-too-long');

  // Too short says what is wrong, not the rule again.
  await password.fill('Ab1');
  await form.getByRole('button', { name: t('login.createAccountSubmit') }).click();
  expect(await errorOf(password)).toBe(t('login.passwordTooShort', { min: 8 }));

  // 20 characters: the account is made with exactly those.
  await password.fill(PASSWORD_20);
  await repeat.fill(PASSWORD_20);
  const since = new Date().toISOString();
  await form.getByRole('button', { name: t('login.createAccountSubmit') }).click();
  await expect(page.getByText(t('login.registrationSentTitle'))).toBeVisible();
  const mail = await waitForMail(
    page.request,
    TENANT,
    email,
    since,
    /Bitte bestätigen Sie Ihr Konto|Please confirm your account/,
  );
  await page.goto(linkIn(mail.text));
  const confirm = page.getByRole('form', { name: t('login.confirmTitle') });
  await field(confirm, t('login.passwordLabel')).fill(PASSWORD_20);
  await confirm.getByRole('button', { name: t('login.confirmButton') }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${TENANT}/orders`));

  // SSO profile: a 21-character new password is refused at the field; nothing is changed.
  await page.goto(`/t/${TENANT}/sso-profile?lang=${langOf(testInfo)}`);
  const section = page.getByRole('form', { name: t('sso-profile-page.password.heading') });
  await field(section, t('sso-profile-page.password.current')).fill(PASSWORD_20);
  const next = field(section, t('sso-profile-page.password.new'));
  await next.fill(PASSWORD_21);
  await field(section, t('sso-profile-page.password.repeat')).fill(PASSWORD_21);
  await expect(next).toHaveValue(PASSWORD_21);
  expect(await errorOf(next)).toBe(t('shell.tooLong', { max: 20, count: 21 }));
  await section.getByRole('button', { name: t('sso-profile-page.password.save') }).click();
  await expect(next).toHaveAttribute('aria-invalid', 'true');
  await expect(section.locator('.alert-success, [role="status"]')).toHaveCount(0);
  await noHorizontalOverflow(page);
  await snapshot(page, testInfo, 'sso-profile-password-too-long');

  // A 20-character new password is saved, and it is the one that signs in.
  await next.fill(NEW_PASSWORD_20);
  await field(section, t('sso-profile-page.password.repeat')).fill(NEW_PASSWORD_20);
  await section.getByRole('button', { name: t('sso-profile-page.password.save') }).click();
  await expect(
    section.getByText(locale === 'de-DE' ? /Ihr Passwort wurde geändert/ : /Your password has been changed/),
  ).toBeVisible();
  await page.evaluate(() => sessionStorage.clear());
  await signInWithPassword(page, locale, email, NEW_PASSWORD_20);
});

test('an order number is never cut, and the link form says in how many minutes to try again after too many tries', async ({
  page,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const t = texts(locale);
  // An account of its own: the budget it spends is that account's, and the demo login's link
  // journeys (ordersAndSubscription.spec.ts) run later against the same server.
  await registerAndSignIn(
    page,
    locale,
    `link-limit-${testInfo.project.name}-${Date.now()}@reader.example`,
    PASSWORD_20,
  );
  await page.goto(`/t/${TENANT}/link-subscription?lang=${langOf(testInfo)}`);
  await expect(page.getByRole('heading', { level: 1, name: t('link-subscription.heading') })).toBeVisible();

  const orderNumber = field(page, t('link-subscription.orderNumber'));
  await orderNumber.fill('40123456789');
  await expect(orderNumber).toHaveValue('40123456789');
  expect(await errorOf(orderNumber)).toBe(t('shell.orderNumberTooLong', { max: 10, count: 11 }));

  // Spend this account's budget of failed proofs (raised for the e2e server) with numbers that do
  // not exist, each another one: one number's own budget stops its guesses sooner (and this client's).
  const statuses = await page.evaluate(async (tenant) => {
    const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${tenant}`) ?? '{}');
    const xsrf = document.cookie
      .split('; ')
      .find((c) => c.startsWith('XSRF-TOKEN='))!
      .slice('XSRF-TOKEN='.length);
    const results: Array<{ status: number; retryAfter: string | null }> = [];
    for (let i = 0; i < 500 && results.at(-1)?.status !== 429; i++) {
      const response = await fetch(`/t/${tenant}/api/subscriptions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-xsrf-token': decodeURIComponent(xsrf),
          'x-auth-token': auth.accessToken,
        },
        body: JSON.stringify({ bpNumber: String(9999999000 + i), zipcode: '12345', lastName: 'Niemand' }),
      });
      results.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
    }
    return results;
  }, TENANT);
  expect(statuses.at(-1)?.status).toBe(429);
  expect(Number(statuses.at(-1)?.retryAfter)).toBeGreaterThan(0);
  expect(statuses.slice(0, -1).every((s) => s.status === 400)).toBe(true);

  // The form itself: the message names the wait in the screen's language, the values stay.
  await orderNumber.fill('4012345678');
  const publication = field(page, t('link-subscription.publication'));
  await publication.selectOption({ index: 1 });
  await field(page, t('link-subscription.zipcode')).fill('30159');
  const gift = page.getByRole('radio', { name: t('link-subscription.giftNo') });
  if ((await gift.count()) > 0) await gift.check();
  await page.getByRole('button', { name: t('link-subscription.submit') }).click();
  const waitText =
    locale === 'de-DE'
      ? /^Zu viele Versuche\. Bitte versuchen Sie es in \d+ Minuten? erneut\.$/
      : /^Too many attempts\. Please try again in \d+ minutes?\.$/;
  await expect(page.locator('.alert').filter({ hasText: waitText })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(orderNumber).toHaveValue('4012345678');
  await noHorizontalOverflow(page);
  await snapshot(page, testInfo, 'link-subscription-429');
});

test('the IBAN field keeps what was typed and says which characters do not belong in an IBAN', async ({
  page,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const t = texts(locale);
  await signInWithPassword(page, locale, 'demo@portal.example', 'Lesen2026');
  // The first subscription that may change to SEPA.
  const target = await page.evaluate(async (tenant) => {
    const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${tenant}`) ?? '{}');
    const get = async (path: string) =>
      (await fetch(`/t/${tenant}/api${path}`, { headers: { 'x-auth-token': auth.accessToken } })).json();
    for (const s of (await get('/subscriptions')) as Array<{ id: string }>) {
      const details = await get(`/subscriptions/${s.id}/payment-details`);
      if (details?.allowedChanges?.includes('sepa') && details.paymentMethod !== 'sepa') return s.id;
    }
    return null;
  }, TENANT);
  expect(target, 'a subscription that may change to SEPA').toBeTruthy();
  await page.goto(`/t/${TENANT}/subscriptions/${target}/payment-details?lang=${langOf(testInfo)}`);
  await page.getByRole('button', { name: t('payment-method-change.change') }).click();
  await page.getByRole('radio', { name: t('payment-method-change.method.sepa'), exact: true }).check();
  const sepa = page.getByRole('form', { name: t('payment-method-change.sepa.heading') });
  const iban = field(sepa, t('payment-method-change.field.iban'));
  await iban.fill('DE12 ABCD 😀<S CRIP T>');
  // Grouped in fours as §5's mask says; nothing dropped, the foreign characters named at the field.
  await expect(iban).toHaveValue('DE12 ABCD 😀<SC RIPT >');
  await expect(iban).toHaveAttribute('aria-invalid', 'true');
  expect(await errorOf(iban)).toBe(
    t('payment-method-change.error.iban.characters', { characters: '😀 < >' }),
  );
  await sepa.getByRole('button', { name: t('payment-method-change.save') }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(iban).toBeFocused();
  await noHorizontalOverflow(page);
  await snapshot(page, testInfo, 'iban-mask');
  // A start other than two letters and two digits is said as it is typed.
  await iban.fill('1234');
  expect(await errorOf(iban)).toBe(t('payment-method-change.error.iban.format'));
});
