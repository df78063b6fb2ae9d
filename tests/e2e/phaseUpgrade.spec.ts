/**
 * The phase upgrade (portal-core.md §2 "a phase-upgrade button", §6 "phase upgrade: phase can
 * upgrade, ordering party, active"): technikwelt's Max Müller has an online trial (IZ) whose phase
 * can be upgraded. The first project to run moves it, in German: the button, the dialog that asks,
 * its confirmation, the mail; after a reload the page still shows no button. The demo has one such
 * trial, so the project that runs second finds it moved and checks that state, in English: no
 * button on the page, none after a reload.
 */
import { expect, test, type Page } from '@playwright/test';
import { screenTexts, signInByMagicLink, subscriptionsOfSession, waitForMail } from './support';

const texts = screenTexts([
  'core/texts.json',
  'account/texts.json',
  'features/subscription/texts.json',
  'features/phase-upgrade/texts.json',
]);
const TENANT = 'technikwelt';
const MAX = 'max.mueller@technikwelt.example';
const LOGIN = {
  'de-DE': {
    emailLabel: 'E-Mail-Adresse',
    sendLink: 'Anmeldelink senden',
    linkSent: /Bitte prüfen Sie Ihr Postfach/,
  },
  'en-GB': { emailLabel: 'E-mail address', sendLink: 'Send login link', linkSent: /Please check your inbox/ },
} as const;

type Trial = {
  id: string;
  displayName: string;
  currentPhase?: { canUpgrade?: boolean } | null;
  orderStatus: string;
};

async function trialOf(page: Page): Promise<Trial> {
  const list = (await subscriptionsOfSession(page, TENANT)) as Trial[];
  const trial = list.find((s) => s.orderStatus === 'IZ');
  expect(trial, 'the demo trial of Max Müller').toBeDefined();
  return trial!;
}

test('the ordering party moves a trial to its next phase once; the button is gone, also after a reload', async ({
  page,
}) => {
  await signInByMagicLink(page, TENANT, MAX, LOGIN['de-DE']);
  const trial = await trialOf(page);
  const upgradable = trial.currentPhase?.canUpgrade === true;
  // The project that runs first (desktop) finds the demo's trial as seeded, so the move is walked.
  if (test.info().project.name === 'desktop') expect(upgradable, 'the seeded trial can move').toBe(true);
  const locale = upgradable ? 'de-DE' : 'en-GB';
  const t = texts(locale);
  if (!upgradable) {
    await page
      .getByRole('button', { name: /English/ })
      .first()
      .click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
  }
  await page.goto(`/t/${TENANT}/subscriptions/${encodeURIComponent(trial.id)}`);
  await expect(page.locator('#subscription-title')).toBeVisible();
  const button = page.getByRole('button', { name: t('phase-upgrade.action') });

  if (upgradable) {
    const since = new Date().toISOString();
    await button.click();
    const dialog = page.getByRole('dialog', { name: t('phase-upgrade.title') });
    await expect(dialog).toContainText(t('phase-upgrade.text'));
    // Cancel first: nothing happens.
    await dialog.getByRole('button', { name: t('phase-upgrade.keep') }).click();
    await expect(dialog).toBeHidden();
    await button.click();
    await page
      .getByRole('dialog', { name: t('phase-upgrade.title') })
      .getByRole('button', { name: t('phase-upgrade.confirm') })
      .click();
    const done = page.getByRole('dialog', { name: t('phase-upgrade.doneTitle') });
    await expect(done).toContainText(t('phase-upgrade.doneText'));
    await done.getByRole('button', { name: t('shell.close') }).click();
    await expect(done).toBeHidden();
    const mail = await waitForMail(page.request, TENANT, MAX, since, /nächste Abo-Phase/);
    expect(mail.text).toContain(trial.displayName);
  }
  // The page shows what the server answered: the phase is no longer upgradable.
  await expect(page.getByRole('heading', { name: t('subscription.actionsHeading') })).toBeVisible();
  await expect(button).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: t('subscription.actionsHeading') })).toBeVisible();
  await expect(button).toHaveCount(0);
  expect((await trialOf(page)).currentPhase?.canUpgrade).toBe(false);
});
