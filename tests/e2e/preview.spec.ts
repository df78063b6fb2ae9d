/**
 * The QA preview (docs/operators.md "The preview page"): two tenants side by side, each frame
 * signed in as the demo login through the dev-only sign-in, the route picker opening the same
 * screen in both with each tenant's own ids, frames scaled to fit and scrolling together, and the
 * feature matrix.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const DEMO = 'demo@portal.example';
const TENANTS = ['stadtkurier', 'technikwelt'] as const;

const frameOf = (page: Page, tenant: string) => page.locator(`section[data-tenant="${tenant}"] iframe`);
const pathIn = (page: Page, tenant: string) =>
  frameOf(page, tenant).evaluate((frame: HTMLIFrameElement) => frame.contentWindow!.location.pathname);

test('two tenants side by side, signed in as their demo user, follow the route picker to the same screen', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`/preview?tenants=${TENANTS.join(',')}&route=orders&user=${encodeURIComponent(DEMO)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'QA preview' })).toBeVisible();
  for (const tenant of TENANTS) {
    await expect(page.locator(`section[data-tenant="${tenant}"] .status`)).toHaveText(
      `Signed in as ${DEMO}.`,
      { timeout: 30_000 },
    );
    await expect.poll(() => pathIn(page, tenant), { timeout: 15_000 }).toBe(`/t/${tenant}/orders`);
    await expect(
      page.frameLocator(`section[data-tenant="${tenant}"] iframe`).locator('.subscription-card').first(),
    ).toBeVisible();
  }

  // Each tenant keeps its own session (engine/core/tenantSession.ts): two different tokens.
  const tokens = await page.evaluate(
    (ids) =>
      ids.map((id) => JSON.parse(sessionStorage.getItem(`portal.authState.${id}`) ?? '{}').accessToken),
    [...TENANTS],
  );
  expect(tokens[0]).not.toBe(tokens[1]);
  // Each token is a live session of its own tenant and of no other.
  const statuses = await page.evaluate(
    async ([ids, keys]) =>
      Promise.all(
        ids.flatMap((id) =>
          keys.map((token) =>
            fetch(`/t/${id}/api/subscriptions`, { headers: { 'x-auth-token': String(token) } }).then(
              (r) => r.status,
            ),
          ),
        ),
      ),
    [[...TENANTS], tokens] as const,
  );
  expect(statuses).toEqual([200, 401, 401, 200]);

  // The route picker: the subscription page, with each tenant's own subscription id filled in.
  await page.getByLabel('Screen').selectOption('subscription');
  await page.getByRole('button', { name: 'Show' }).click();
  for (const tenant of TENANTS) {
    await expect(page.locator(`section[data-tenant="${tenant}"] .status`)).toHaveText(
      `Signed in as ${DEMO}.`,
      { timeout: 30_000 },
    );
    await expect
      .poll(() => pathIn(page, tenant), { timeout: 15_000 })
      .toMatch(new RegExp(`^/t/${tenant}/subscriptions/[^/]+$`));
    const frame = page.frameLocator(`section[data-tenant="${tenant}"] iframe`);
    await expect(frame.getByText('Auftragsnummer').first()).toBeVisible();
    await expect(frame.getByRole('button', { name: /Anmeldelink senden/ })).toHaveCount(0);
    const id = decodeURIComponent((await pathIn(page, tenant)).split('/').pop()!);
    const own = await page.evaluate(async (t) => {
      const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${t}`) ?? '{}');
      const list = (await (
        await fetch(`/t/${t}/api/subscriptions`, { headers: { 'x-auth-token': auth.accessToken } })
      ).json()) as Array<{ id: string }>;
      return list.map((s) => s.id);
    }, tenant);
    expect(own).toContain(id);
  }

  // Scaled to fit: both frames sit inside the window, whatever its width.
  const viewport = page.viewportSize()!;
  for (const tenant of TENANTS) {
    const box = (await page.locator(`section[data-tenant="${tenant}"] .frame-wrap`).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  }

  // Synced scrolling: scrolling one frame scrolls the other.
  await frameOf(page, 'technikwelt').evaluate((frame: HTMLIFrameElement) =>
    frame.contentWindow!.scrollTo(0, 150),
  );
  await expect
    .poll(() =>
      frameOf(page, 'stadtkurier').evaluate((frame: HTMLIFrameElement) =>
        Math.round(frame.contentWindow!.scrollY),
      ),
    )
    .toBe(150);

  // The feature matrix: technikwelt has every feature on, stadtkurier not the loyalty programme.
  const matrix = page.getByRole('table', { name: /Feature matrix/ });
  const loyalty = matrix.getByRole('row', { name: /loyalty-programme/ });
  const columns = await matrix.locator('thead th').allTextContents();
  const cells = loyalty.locator('td');
  await expect(cells.nth(columns.indexOf('stadtkurier') - 1)).toHaveClass('off');
  await expect(cells.nth(columns.indexOf('technikwelt') - 1)).toHaveClass('on');

  // The page itself (the frames are the portals' own sweep, accessibility.spec.ts): no serious or critical axe violation, no sideways scrolling.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: object,
            options: object,
          ) => Promise<{ violations: Array<{ id: string; impact: string }> }>;
        };
      }
    ).axe;
    const result = await axe.run({ exclude: [['iframe']] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}`);
  });
  expect(violations).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
});

test('a frame switched to signed out shows the portal as a visitor sees it, the other stays signed in', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto(
    `/preview?tenants=${TENANTS.join(',')}&route=faq&user=${encodeURIComponent(DEMO)}&user.stadtkurier=`,
  );
  await expect(page.locator('section[data-tenant="technikwelt"] .status')).toHaveText(
    `Signed in as ${DEMO}.`,
    { timeout: 30_000 },
  );
  await expect(page.locator('section[data-tenant="stadtkurier"] .status')).toHaveText('Signed out.');
  await expect.poll(() => pathIn(page, 'stadtkurier')).toBe('/t/stadtkurier/faq');
  await expect.poll(() => pathIn(page, 'technikwelt')).toBe('/t/technikwelt/faq');
  await expect(page.locator('section[data-tenant="stadtkurier"] select')).toHaveValue('');
  await expect(page.locator('section[data-tenant="technikwelt"] select')).toHaveValue(DEMO);
});
