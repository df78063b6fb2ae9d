/**
 * Retention insights (docs/operators.md "Retention insights"): an operator opens the studio's
 * insights page for technikwelt, with eight weeks of made-up flows in the studio's database
 * (tests/support/retentionHistory.ts) and an offer experiment in the tenant file, in English and in
 * German: the figures per flow, the table per publication and reason, the weekly chart (uPlot's
 * canvas), the experiment's variants with their intervals and verdict, another period, and the way
 * there from the editor, where the experiment is edited.
 *
 * Like tests/e2e/studio.spec.ts, the studio is its own process (own port, database and tenants
 * folder), reusing the engine build of this run's `portal start`. With INSIGHTS_SCREENSHOT=<png>
 * the English page is saved there (the README's picture).
 */
import { test, expect, type Page } from '@playwright/test';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ORIGINAL = path.join(ROOT, 'tenants', 'technikwelt.json');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EXPERIMENT = {
  id: 'price-offers',
  flow: 'cancellation',
  reason: 'PREIS',
  variants: [
    { id: 'half-price', weight: 1, offers: ['TWM-KEEP-HALF', 'TWD-KEEP-HALF'] },
    { id: 'no-offer', weight: 1, offers: [] },
  ],
};

let studio: ChildProcess | undefined;
let origin = '';
let workDir = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  workDir = mkdtempSync(path.join(tmpdir(), 'portal-insights-'));
  const tenantsDir = path.join(workDir, 'tenants');
  mkdirSync(tenantsDir, { recursive: true });
  const tenantFile = path.join(tenantsDir, 'technikwelt.json');
  const tenant = JSON.parse(readFileSync(ORIGINAL, 'utf8')) as Record<string, unknown>;
  writeFileSync(tenantFile, `${JSON.stringify({ ...tenant, offerExperiments: [EXPERIMENT] }, null, 2)}\n`);
  const port = await freePort();
  const dataDir = path.join(workDir, 'data');
  studio = spawn(
    process.execPath,
    ['cli/bin.mjs', 'studio', 'technikwelt', '--port', String(port), '--tenants-dir', tenantsDir],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORTAL_DATA_DIR: dataDir,
        PORTAL_DIST_DIR: path.join(process.env.E2E_DATA_DIR!, 'dist'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const studioUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`portal studio did not start:\n${output}`)), 220_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /studio ready in \d+ ms: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    studio!.stdout!.on('data', onData);
    studio!.stderr!.on('data', onData);
    studio!.once('exit', (code) => reject(new Error(`portal studio exited with ${code}:\n${output}`)));
  });
  origin = new URL(studioUrl).origin;
  // The history goes into the studio's own PostgreSQL (studio/ under PORTAL_DATA_DIR), shared while
  // the studio runs.
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'tests/support/retentionHistory.ts',
      path.join(dataDir, 'studio'),
      'technikwelt',
      tenantFile,
    ],
    { cwd: ROOT, stdio: 'pipe', env: { ...process.env, DATABASE_URL: '' } },
  );
});

test.afterAll(async () => {
  if (studio && studio.exitCode === null) {
    const exited = new Promise((resolve) => studio!.once('exit', resolve));
    studio.kill('SIGTERM');
    await exited;
  }
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Serious and critical axe violations of the page (the preview frames have their own suite). */
async function seriousViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol: the studio's CSP (script-src 'self') refuses a script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Violation = { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> };
    const axe = (
      window as unknown as { axe: { run: (c: object, o: object) => Promise<{ violations: Violation[] }> } }
    ).axe;
    const result = await axe.run({ exclude: [['iframe']] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  });
}

const insightsUrl = (lang: string) => `${origin}/studio/?view=insights&tenant=technikwelt&lang=${lang}`;

async function expectFigures(
  page: Page,
  words: {
    cancellations: string;
    saveRate: string;
    countsUnit: RegExp;
    ratesUnit: RegExp;
    priceReason: string;
  },
) {
  const card = page.getByTestId('flow-cancellation');
  await expect(card.getByRole('heading', { name: words.cancellations })).toBeVisible({ timeout: 30_000 });
  await expect(card.locator('.insights-rate')).toHaveText(/^\d+[.,]\d\s?%$/);
  // The history's last 14 days are still open: counted apart, in no rate.
  await expect(page.getByTestId('open-cancellation')).toHaveText(/^[1-9]\d*$/);
  // Money with its currency, for the page's language.
  await expect(page.getByTestId('revenue-cancellation')).toHaveText(/€/);
  const segments = page.getByTestId('segments-cancellation');
  await expect(segments.getByRole('columnheader', { name: words.saveRate })).toBeVisible();
  // The reason by the order system's words in the page's language, not its code.
  const price = segments.locator('tbody tr[data-reason="PREIS"]').filter({ hasText: 'TWM' });
  await expect(price).toHaveCount(1);
  await expect(price).toContainText(words.priceReason);
  await expect(price).not.toContainText('PREIS');
  // Counts and rates on charts of their own (uPlot's canvas, which draws the axes and their labels),
  // each series named in the legend and the chart's unit in its accessible name.
  for (const [chart, unit] of [
    ['trend-counts', words.countsUnit],
    ['trend-rates', words.ratesUnit],
  ] as const) {
    await expect(page.getByTestId(chart).locator('canvas')).toBeVisible();
    await expect(page.getByTestId(chart).locator('.u-legend')).toContainText(words.cancellations);
    await expect(page.getByTestId(chart)).toHaveAttribute('aria-label', unit);
  }
}

const ENGLISH = {
  cancellations: 'Cancellations',
  saveRate: 'Save rate',
  countsUnit: /axis: number of flows/,
  ratesUnit: /axis: per cent/,
  priceReason: 'The subscription is too expensive for me.',
};
const GERMAN = {
  cancellations: 'Kündigungen',
  saveRate: 'Halterate',
  countsUnit: /Achse: Anzahl der Abläufe/,
  ratesUnit: /Achse: Prozent/,
  priceReason: 'Das Abonnement ist mir zu teuer.',
};

test('the insights page in English: figures, weekly chart, the experiment with its intervals, another period', async ({
  page,
}) => {
  await page.goto(insightsUrl('en-GB'));
  await expect(page.getByRole('heading', { name: 'Retention insights', level: 1 })).toBeVisible();
  await expectFigures(page, ENGLISH);
  await expect(
    page.getByTestId('flow-renewal').getByRole('heading', { name: 'Renewals offered' }),
  ).toBeVisible();

  const experiment = page.getByTestId('experiment-price-offers');
  await expect(experiment.getByRole('heading')).toContainText('price-offers');
  for (const variant of ['half-price', 'no-offer'])
    await expect(experiment.getByRole('row', { name: new RegExp(variant) })).toContainText(
      /\d+[.,]\d\s?% – \d+[.,]\d\s?%/,
    );
  await expect(experiment.locator('.insights-verdict')).toHaveText(
    /The save rates differ significantly|The difference is not \(yet\) significant/,
  );
  await expect(experiment).toContainText(/no-offer against half-price: [+-]\d/);
  expect(await seriousViolations(page)).toEqual([]);

  if (process.env.INSIGHTS_SCREENSHOT) {
    await page.setViewportSize({ width: 1280, height: 1640 });
    await page.screenshot({ path: process.env.INSIGHTS_SCREENSHOT, fullPage: false });
  }

  const before = await page.locator('.insights-period-note').textContent();
  await page.getByRole('button', { name: 'Last 4 weeks' }).click();
  await expect(page.locator('.insights-period-note')).not.toHaveText(before ?? '');
  expect(new URL(page.url()).searchParams.get('from')).toBe(
    new Date(Date.now() - 27 * 86_400_000).toISOString().slice(0, 10),
  );
  await expectFigures(page, ENGLISH);
});

test('the insights page in German, and the way there from the editor, where experiments are edited', async ({
  page,
}) => {
  await page.goto(`${origin}/studio/?lang=de-DE`);
  await expect(page.getByRole('heading', { name: 'Portal-Studio' })).toBeVisible({ timeout: 30_000 });
  // The experiment is a setting of the file like any other: the form's flows tab has it.
  await page.getByRole('tab', { name: 'Abläufe' }).click();
  await expect(page.locator('#root_offerExperiments_0_id')).toHaveValue('price-offers');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Auswertung' }).click();
  await expect(
    page.getByRole('heading', { name: 'Kündigungs- und Angebotsauswertung', level: 1 }),
  ).toBeVisible();
  await expectFigures(page, GERMAN);
  expect(await seriousViolations(page)).toEqual([]);
  const experiment = page.getByTestId('experiment-price-offers');
  await expect(experiment.getByRole('columnheader', { name: '95-%-Intervall' })).toBeVisible();
  await expect(experiment.locator('.insights-verdict')).toHaveText(
    /Die Halteraten unterscheiden sich signifikant|Der Unterschied ist \(noch\) nicht signifikant/,
  );
  await page.getByRole('link', { name: 'Zurück zum Editor' }).click();
  await expect(page.getByRole('heading', { name: 'Portal-Studio' })).toBeVisible();
});
