/**
 * A screen that fails, as a subscriber meets it (engine/core/ScreenErrorBoundary.tsx), and the
 * error report it sends (portal-core.md §9 "Error-reporting sample rate"; docs/going-live.md
 * "Client error reports"): a screen's file that does not load (a build that is gone) asks for a
 * reload, and the reload brings the screen; a screen that fails on an answer it cannot read says
 * so in its place, with the header and the way to the overview still there. Each failure reaches
 * the server as a report, also when the reports' own file does not load either (the sample is
 * forced here: the browser's random numbers are all 0).
 *
 * Desktop (1280 px) runs in English, phone (360 px) in German; screenshots land in the test output
 * folder (or E2E_SHOTS_DIR).
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { screenHeading, screenTexts, type ScreenLocale } from './support';

const texts = screenTexts(['core/texts.json', 'features/faq/texts.json']);
const TENANT = 'technikwelt';
const localeOf = (info: TestInfo): ScreenLocale => (info.project.name === 'desktop' ? 'en-GB' : 'de-DE');

async function shot(page: Page, info: TestInfo, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  await page.screenshot({
    path: dir ? `${dir}/${name}-${info.project.name}.png` : info.outputPath(`${name}.png`),
  });
}

/** The next client error report the page sends, with the server's answer. */
function nextReport(page: Page) {
  return page.waitForResponse(
    (response) => response.url().endsWith('/api/client-errors') && response.request().method() === 'POST',
  );
}

test.beforeEach(async ({ page }) => {
  // Every error is reported (the portal sends a sample of 0.25 of them).
  await page.addInitScript(() => {
    Math.random = () => 0;
  });
});

test('a screen file that does not load asks for a reload, and the reload brings the screen', async ({
  page,
}, info) => {
  const t = texts(localeOf(info));
  const blocked = '**/assets/FaqScreen-*.js';
  await page.route(blocked, (route) => route.abort());
  const report = nextReport(page);
  await page.goto(`/t/${TENANT}/faq?lang=${localeOf(info)}`);
  await expect(screenHeading(page)).toHaveText(t('shell.staleBuildTitle'));
  await expect(page.getByText(t('shell.staleBuildText'))).toBeVisible();
  const answer = await report;
  expect(answer.status()).toBe(204);
  expect(answer.request().postDataJSON()).toMatchObject({ kind: 'chunk', path: '/faq' });
  await shot(page, info, 'stale-build');

  await page.unroute(blocked);
  await page.getByRole('button', { name: t('shell.reloadPage') }).click();
  await expect(screenHeading(page)).toHaveText(t('faq.title'));
  await expect(page.getByText(t('shell.staleBuildTitle'))).toHaveCount(0);
});

test('a screen that cannot read its answer says so in its place; the overview link leads on', async ({
  page,
}, info) => {
  const t = texts(localeOf(info));
  await page.route('**/api/faq', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"entries":5}' }),
  );
  const report = nextReport(page);
  await page.goto(`/t/${TENANT}/faq?lang=${localeOf(info)}`);
  await expect(screenHeading(page)).toHaveText(t('shell.errorTitle'));
  await expect(page.getByText(t('shell.screenFailedText'))).toBeVisible();
  // The shell stays: the header with its language button is still there.
  await expect(page.locator('header')).toBeVisible();
  const answer = await report;
  expect(answer.status()).toBe(204);
  expect(answer.request().postDataJSON()).toMatchObject({ kind: 'render', path: '/faq' });
  await shot(page, info, 'screen-failed');

  await page.getByRole('link', { name: t('shell.toOverview') }).click();
  // Signed out, the overview asks for a sign-in first: the failure's notice is gone.
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(t('shell.errorTitle'))).toHaveCount(0);
});

test('a tab whose build is gone still reports, without details, when the reports’ own file is gone too', async ({
  page,
}, info) => {
  const t = texts(localeOf(info));
  await page.route('**/assets/FaqScreen-*.js', (route) => route.abort());
  await page.route('**/assets/errorReporting-*.js', (route) => route.abort());
  const report = nextReport(page);
  await page.goto(`/t/${TENANT}/faq?lang=${localeOf(info)}`);
  await expect(screenHeading(page)).toHaveText(t('shell.staleBuildTitle'));
  const answer = await report;
  expect(answer.status()).toBe(204);
  expect(answer.request().postDataJSON()).toEqual({
    kind: 'chunk',
    name: 'Error',
    message: 'A script file and the error reports did not load.',
    path: '/',
  });
});
