/**
 * Multi-user licences (account-flows.md §2 "Licences", §4, §5, §6, §8) on technikwelt, which has
 * the feature on: the demo login (ordering party of a seeded multi-licence) invites a licence user;
 * the invitation e-mail's link, opened without a session, accepts the licence (role with academic
 * year, as the tenant asks); the licence then shows as active, and the invited person signs in and
 * sees the licensed subscription. Replacing the licence manager mails a confirmation link: the page
 * shows the appointment as pending until the appointed person confirms it on the link's page (the
 * address proves it is theirs; docs/subscribers.md "Multi-user licences"). Desktop runs it in
 * German, phone (360 px) in English; both against the same server one after the other, so each
 * invites an address of its own and the seeded object has two free seats for them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { linkIn, signInByMagicLink, subscriptionsOfSession, waitForMail } from './support';

type Locale = 'de-DE' | 'en-GB';
const TEXTS = [
  'core/texts.json',
  'account/texts.json',
  'features/subscription/texts.json',
  'features/multi-user-licenses/texts.json',
].map((file) => JSON.parse(readFileSync(`engine/${file}`, 'utf8')) as Record<Locale, Record<string, string>>);
function texts(locale: Locale) {
  return (key: string, vars: Record<string, string | number> = {}) => {
    const table = TEXTS.find((t) => t[locale][key] !== undefined);
    if (!table) throw new Error(`no text ${key}`);
    return table[locale][key].replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? ''));
  };
}
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A form field by its label; required labels end in an aria-hidden " *". */
const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));

const TENANT = 'technikwelt';
const DEMO_EMAIL = 'demo@portal.example';
const GERMAN_LOGIN = {
  emailLabel: 'E-Mail-Adresse',
  sendLink: 'Anmeldelink senden',
  linkSent: /Bitte prüfen Sie Ihr Postfach/,
};
const ENGLISH_LOGIN = {
  emailLabel: 'E-mail address',
  sendLink: 'Send login link',
  linkSent: /Please check your inbox/,
};
const localeOf = (testInfo: TestInfo): Locale => (testInfo.project.name === 'phone' ? 'en-GB' : 'de-DE');

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Serious or critical axe-core violations of the page (as tests/e2e/accessibility.spec.ts checks every screen). */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the portal's CSP (script-src 'self') refuses a script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id} (${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')})`,
      );
  });
}

async function noHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page wider than the viewport').toBeLessThanOrEqual(clientWidth);
}

test('the ordering party invites a licence user, who accepts through the e-mailed link, shows as active and sees the subscription', async ({
  page,
  browser,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const lang = locale === 'de-DE' ? 'de' : 'en';
  const t = texts(locale);
  const invited = `lizenz.${testInfo.project.name}.${Date.now()}@example.org`;

  await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
  const all = (await subscriptionsOfSession(page, TENANT)) as unknown as Array<{
    id: string;
    displayName: string;
    orderNumber: string;
    isMultiLicense: boolean;
    roles: string[];
  }>;
  const s = all.find((x) => x.isMultiLicense && x.roles.includes('AG'));
  expect(s, 'the demo login’s multi-licence').toBeDefined();

  // A subscription without licences says so rather than failing to load (§6).
  const plain = all.find((x) => !x.isMultiLicense)!;
  await page.goto(`/t/${TENANT}/subscriptions/${plain.id}/licenses?lang=${lang}`);
  await expect(page.getByText(t('multi-user-licenses.notAvailable'))).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The subscription page offers the licences (portal-core.md §6 multi-user licences).
  await page.goto(`/t/${TENANT}/subscriptions/${s!.id}?lang=${lang}`);
  // (The page names the subscription by the tenant's type labels, so the API's displayName is not its heading.)
  await page
    .getByRole('region', { name: t('subscription.actionsHeading') })
    .getByRole('link', { name: t('multi-user-licenses.action'), exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: t('multi-user-licenses.heading') })).toBeVisible();
  const object = page.locator('li.license-object', {
    has: page.getByRole('heading', {
      name: t('multi-user-licenses.object.title', { orderNumber: s!.orderNumber }),
    }),
  });
  await expect(object.getByTestId('license')).not.toHaveCount(0);
  // No value of the card's facts breaks inside a word: a long label once squeezed the publication's
  // name into "Technik / welt / Digital" at 360 px.
  const splitWords = await object.locator('.facts dd').evaluateAll((values) =>
    values.flatMap((value) =>
      (value.textContent ?? '').split(/\s+/).filter((word) => {
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'nowrap';
        probe.textContent = word;
        value.append(probe);
        const wider = probe.getBoundingClientRect().width > value.clientWidth + 0.5;
        probe.remove();
        return wider;
      }),
    ),
  );
  expect(splitWords).toEqual([]);
  // Every state of the seed shows: invited, active, inactive.
  for (const status of ['invited', 'active', 'inactive'])
    await expect(
      object.getByText(t(`multi-user-licenses.status.${status}`), { exact: true }).first(),
    ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('licenses.png'), fullPage: true });
  await noHorizontalOverflow(page);

  // Invite: the dialog checks the fields first (§5), then sends.
  await object.getByRole('button', { name: t('multi-user-licenses.add') }).click();
  const dialog = page.getByRole('dialog', { name: t('multi-user-licenses.addTitle') });
  await dialog.getByRole('button', { name: t('multi-user-licenses.addSubmit') }).click();
  await expect(dialog.getByText(t('multi-user-licenses.field.required')).first()).toBeVisible();
  await field(dialog, t('multi-user-licenses.field.salutation')).selectOption({ index: 1 });
  // An address that is not one is named as such, and what was typed stays.
  const email = field(dialog, t('multi-user-licenses.field.email'));
  await email.fill('clara.lizenz@');
  await dialog.getByRole('button', { name: t('multi-user-licenses.addSubmit') }).click();
  await expect(dialog.getByText(t('multi-user-licenses.field.invalidEmail'))).toBeVisible();
  await expect(email).toHaveValue('clara.lizenz@');
  await email.fill(invited);
  await field(dialog, t('multi-user-licenses.field.firstName')).fill('Clara');
  await field(dialog, t('multi-user-licenses.field.lastName')).fill('Lizenz');
  const since = new Date().toISOString();
  await dialog.getByRole('button', { name: t('multi-user-licenses.addSubmit') }).click();
  await expect(
    page.getByRole('status').filter({ hasText: t('multi-user-licenses.added', { email: invited }) }),
  ).toBeVisible();
  const row = object.getByTestId('license').filter({ hasText: invited });
  await expect(row).toContainText(t('multi-user-licenses.status.invited'));

  // The invitation e-mail's link, opened by someone without a session.
  const mail = await waitForMail(page.request, TENANT, invited, since, /Einladung|invitation/);
  const visitor = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const guest = await visitor.newPage();
  await guest.goto(linkIn(mail.text));
  await expect(
    guest.getByRole('heading', { level: 1, name: t('multi-user-licenses.accept.heading') }),
  ).toBeVisible();
  await expect(field(guest, t('multi-user-licenses.field.email'))).toBeDisabled();
  await expect(field(guest, t('multi-user-licenses.field.email'))).toHaveValue(invited);
  await expect(field(guest, t('multi-user-licenses.field.firstName'))).toHaveValue('Clara');
  await field(guest, t('multi-user-licenses.field.company')).fill('Hochschule Nord');
  // technikwelt requires a role; students give their academic year (2 digits).
  await field(guest, t('multi-user-licenses.field.role')).selectOption({
    label: locale === 'de-DE' ? 'Studierende' : 'Student',
  });
  await guest.getByRole('button', { name: t('multi-user-licenses.accept.submit') }).click();
  await expect(field(guest, t('multi-user-licenses.field.academicYear'))).toBeFocused();
  await field(guest, t('multi-user-licenses.field.academicYear')).fill('24');
  await guest.screenshot({ path: testInfo.outputPath('accept.png'), fullPage: true });
  await noHorizontalOverflow(guest);
  await guest.getByRole('button', { name: t('multi-user-licenses.accept.submit') }).click();
  await expect(guest.getByText(t('multi-user-licenses.accept.done', { email: invited }))).toBeVisible();
  // The link works once.
  await guest.goto(linkIn(mail.text));
  await expect(guest.getByText(t('multi-user-licenses.accept.alreadyAccepted'))).toBeVisible();

  // Back with the manager: the licence is accepted and active.
  await page.reload();
  await expect(row).toContainText(t('multi-user-licenses.status.active'));
  await expect(row).toContainText(locale === 'de-DE' ? 'Studierende' : 'Student');

  // The licence user signs in with the invited address and sees the licensed subscription.
  // The accept link carried the invitation's language, which the portal keeps for the sign-in.
  await signInByMagicLink(guest, TENANT, invited, locale === 'de-DE' ? GERMAN_LOGIN : ENGLISH_LOGIN);
  const theirs = await subscriptionsOfSession(guest, TENANT);
  expect(theirs.map((x) => x.id)).toContain(s!.id);
  await expect(guest.locator(`main a[href$="/subscriptions/${s!.id}"]`).first()).toBeVisible();
  await visitor.close();
});

test('the accept page says a link without its token is not valid and an unknown licence is not found', async ({
  page,
}, testInfo) => {
  const t = texts(localeOf(testInfo));
  const lang = localeOf(testInfo) === 'de-DE' ? 'de' : 'en';
  await page.goto(
    `/t/${TENANT}/subscriptions/TW1000000000/licenses/00000000-0000-0000-0000-000000000000/accept?lang=${lang}`,
  );
  await expect(
    page.getByRole('heading', { level: 1, name: t('multi-user-licenses.accept.heading') }),
  ).toBeVisible();
  await expect(page.getByText(t('multi-user-licenses.accept.invalidLink'))).toBeVisible();
  await page.goto(
    `/t/${TENANT}/subscriptions/TW1000000000/licenses/00000000-0000-0000-0000-000000000000/accept?token=abc&lang=${lang}`,
  );
  await expect(page.getByText(t('multi-user-licenses.accept.notFound'))).toBeVisible();
});

test('replacing the licence manager mails a confirmation link; the appointment is pending until the appointed person confirms it', async ({
  page,
  browser,
}, testInfo) => {
  const locale = localeOf(testInfo);
  const lang = locale === 'de-DE' ? 'de' : 'en';
  const t = texts(locale);
  const appointed = `verwalter.${testInfo.project.name}.${Date.now()}@example.org`;

  await signInByMagicLink(page, TENANT, DEMO_EMAIL, GERMAN_LOGIN);
  const all = (await subscriptionsOfSession(page, TENANT)) as unknown as Array<{
    id: string;
    isMultiLicense: boolean;
    roles: string[];
  }>;
  const s = all.find((x) => x.isMultiLicense && x.roles.includes('AG'))!;
  await page.goto(`/t/${TENANT}/subscriptions/${s.id}/licenses?lang=${lang}`);
  const managers = page.getByRole('region', { name: t('multi-user-licenses.managers.heading') });
  // "Appoint" while nobody manages the licences, "Replace" once somebody does: the same form,
  // worded for what it does.
  const replaceButton = managers.getByRole('button', { name: t('multi-user-licenses.managers.replace') });
  const appointButton = managers.getByRole('button', { name: t('multi-user-licenses.managers.appoint') });
  await expect(replaceButton.or(appointButton)).toBeVisible();
  const word = (await appointButton.count()) > 0 ? 'appoint' : 'replace';
  await replaceButton.or(appointButton).click();
  const dialog = page.getByRole('dialog', { name: t(`multi-user-licenses.managers.${word}Title`) });
  await expect(dialog.getByText(t(`multi-user-licenses.managers.${word}Intro`))).toBeVisible();
  await field(dialog, t('multi-user-licenses.field.salutation')).selectOption({ index: 1 });
  await field(dialog, t('multi-user-licenses.field.email')).fill(appointed);
  await field(dialog, t('multi-user-licenses.field.firstName')).fill('Vera');
  await field(dialog, t('multi-user-licenses.field.lastName')).fill('Verwalterin');
  const since = new Date().toISOString();
  await dialog.getByRole('button', { name: t(`multi-user-licenses.managers.${word}Submit`) }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: t('multi-user-licenses.managers.appointmentSent', { email: appointed }) }),
  ).toBeVisible();
  // Pending, not yet manager.
  const pending = managers.getByTestId('license-manager-pending').filter({ hasText: appointed });
  await expect(pending).toContainText(t('multi-user-licenses.managers.pending'));
  await page.screenshot({ path: testInfo.outputPath('manager-pending.png'), fullPage: true });
  await noHorizontalOverflow(page);
  expect(await seriousViolations(page)).toEqual([]);

  // The appointed person opens the mailed link without a session and confirms.
  const mail = await waitForMail(
    page.request,
    TENANT,
    appointed,
    since,
    /Lizenzverwaltung|licence management|managing the licences/,
  );
  const visitor = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const guest = await visitor.newPage();
  await guest.goto(linkIn(mail.text));
  await expect(
    guest.getByRole('heading', { level: 1, name: t('multi-user-licenses.confirmManager.heading') }),
  ).toBeVisible();
  await expect(guest.getByText(appointed)).toBeVisible();
  // Opening the link changed nothing yet.
  await page.reload();
  await expect(managers.getByTestId('license-manager-pending').filter({ hasText: appointed })).toBeVisible();
  await guest.screenshot({ path: testInfo.outputPath('manager-confirm.png'), fullPage: true });
  await noHorizontalOverflow(guest);
  expect(await seriousViolations(guest)).toEqual([]);
  await guest.getByRole('button', { name: t('multi-user-licenses.confirmManager.submit') }).click();
  await expect(
    guest.getByText(t('multi-user-licenses.confirmManager.done', { email: appointed })),
  ).toBeVisible();
  await guest.goto(linkIn(mail.text));
  await expect(guest.getByText(t('multi-user-licenses.confirmManager.alreadyConfirmed'))).toBeVisible();
  await visitor.close();

  // Now the appointed person is the licence manager.
  await page.reload();
  await expect(managers.getByTestId('license-manager-pending')).toHaveCount(0);
  await expect(managers.locator('li.license-person').filter({ hasText: appointed })).toContainText(
    'Vera Verwalterin',
  );
});
