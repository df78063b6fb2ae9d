/**
 * The studio (docs/operators.md "Operators: the studio"): an operator edits a tenant file in
 * `portal studio` and watches the live portal follow; the validator's problems appear at their
 * fields in its own words; a save shows the diff and changes the file minimally, and
 * `portal validate` passes on the result.
 *
 * The suite's web server is `portal start`; the studio is its own process (its own port, database
 * and tenants folder, as beside `npm start`), started here on a copy of technikwelt.json and
 * reusing the engine build `portal start` made in the suite's dist folder.
 */
import { test, expect, type Frame, type Page } from '@playwright/test';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ORIGINAL = path.join(ROOT, 'tenants', 'technikwelt.json');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let studio: ChildProcess | undefined;
let studioUrl = '';
let workDir = '';
let tenantsDir = '';

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
  workDir = mkdtempSync(path.join(tmpdir(), 'portal-studio-'));
  tenantsDir = path.join(workDir, 'tenants');
  mkdirSync(tenantsDir, { recursive: true });
  copyFileSync(ORIGINAL, path.join(tenantsDir, 'technikwelt.json'));
  const port = await freePort();
  studio = spawn(
    process.execPath,
    ['cli/bin.mjs', 'studio', 'technikwelt', '--port', String(port), '--tenants-dir', tenantsDir],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORTAL_DATA_DIR: path.join(workDir, 'data'),
        // The engine build of this run's `portal start` (playwright.config.ts); the studio builds into its .studio.
        PORTAL_DIST_DIR: path.join(process.env.E2E_DATA_DIR!, 'dist'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  studioUrl = await new Promise<string>((resolve, reject) => {
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
});

test.afterAll(async () => {
  if (studio && studio.exitCode === null) {
    const exited = new Promise((resolve) => studio!.once('exit', resolve));
    studio.kill('SIGTERM');
    await exited;
  }
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function openStudio(page: Page) {
  await page.goto(studioUrl);
  await expect(page.getByRole('heading', { name: 'Portal studio' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('studio-summary')).toHaveText(/No problems/);
}

/** The live portal frames, in the order of the page: the phone's first, then the desktop's. */
function previewFrame(page: Page, which: 'Phone' | 'Desktop'): Frame {
  const frame = page.mainFrame().childFrames()[which === 'Phone' ? 0 : 1];
  if (!frame) throw new Error(`no ${which} preview frame`);
  return frame;
}

/** The field group of rjsf around an input: its label, description and errors. */
const fieldOf = (page: Page, inputId: string) =>
  page.locator(`.form-group:has(> * #${inputId}), .form-group:has(#${inputId})`).last();

test('changing the name and the primary colour: both live portal frames follow, signed in as the chosen demo user', async ({
  page,
}) => {
  // The form's checks are compiled when the studio is built: none is compiled in the page, which
  // its policy (no 'unsafe-eval') would refuse, as it did before with an error per check.
  const evalRefusals: string[] = [];
  page.on('console', (message) => {
    if (/unsafe-eval|compiling schema/i.test(message.text())) evalRefusals.push(message.text());
  });
  page.on('pageerror', (error) => evalRefusals.push(error.message));
  await openStudio(page);
  await expect.poll(() => page.mainFrame().childFrames().length, { timeout: 20_000 }).toBe(2);
  // The portal's title names the screen and the tenant ("Anmelden bei TechnikWelt – TechnikWelt Verlagsgruppe").
  for (const which of ['Phone', 'Desktop'] as const)
    await expect
      .poll(() => previewFrame(page, which).title(), { timeout: 20_000 })
      .toContain('TechnikWelt Verlagsgruppe');

  await page.locator('#root_name').fill('Studio Test Verlag');
  await page.locator('#root_theme_tokens_colors_primary').fill('#1b5e20');
  // The colour widget shows the contrast against its pair as the operator types.
  await expect(
    fieldOf(page, 'root_theme_tokens_colors_primary').getByText(/against onPrimary/),
  ).toBeVisible();

  for (const which of ['Phone', 'Desktop'] as const) {
    const frame = () => previewFrame(page, which);
    await expect.poll(() => frame().title(), { timeout: 20_000 }).toContain('Studio Test Verlag');
    await expect
      .poll(
        () =>
          frame().evaluate(() =>
            getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim(),
          ),
        { timeout: 20_000 },
      )
      .toBe('#1b5e20');
  }

  // Signed in as a demo user: the frames leave the sign-in page for the subscriber's screens.
  await page.getByLabel('Signed in as').selectOption('demo@portal.example');
  await expect.poll(() => previewFrame(page, 'Phone').url(), { timeout: 20_000 }).not.toMatch(/\/login/);
  await expect
    .poll(() =>
      previewFrame(page, 'Phone')
        .evaluate(() => Object.keys(sessionStorage).some((key) => key.startsWith('portal.authState.')))
        // The frame may be between the login and the orders page: asked again.
        .catch(() => false),
    )
    .toBe(true);

  const violations = await seriousViolations(page);
  expect(violations).toEqual([]);

  // Every tab's form, with the fields of both shapes (one text for every language, one per language).
  const tabs = page.getByRole('tab');
  for (let i = 0; i < (await tabs.count()); i++) {
    await tabs.nth(i).click();
    await expect(page.locator('#studio-tabpanel form')).toBeVisible();
  }
  expect(evalRefusals).toEqual([]);
});

test('a URL without protocol: the error portal validate reports shows at the field, in the same words', async ({
  page,
}) => {
  await openStudio(page);
  const broken = readFileSync(ORIGINAL, 'utf8').replace(
    '"logoTargetUrl": "https://www.technikwelt.example/"',
    '"logoTargetUrl": "www.technikwelt.example"',
  );
  // What `portal validate --json` says about the same mistake in a file.
  const brokenFile = path.join(workDir, 'technikwelt.json');
  writeFileSync(brokenFile, broken);
  let report = '';
  try {
    execFileSync(process.execPath, ['cli/bin.mjs', 'validate', '--json', brokenFile], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    report = String((error as { stdout: Buffer }).stdout);
  }
  const [expected] = (JSON.parse(report) as { issues: Array<{ pointer: string; message: string }> }).issues;
  expect(expected.pointer).toBe('/logoTargetUrl');

  await page.locator('#root_logoTargetUrl').fill('www.technikwelt.example');
  await expect(fieldOf(page, 'root_logoTargetUrl')).toContainText(expected.message);
  await expect(page.getByTestId('studio-summary')).toHaveText(/1 problem/);

  // An invalid file is saved only with its problems confirmed.
  await page.getByRole('button', { name: 'Review changes and save' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('studio-diff')).toContainText(
    '+   "logoTargetUrl": "www.technikwelt.example",',
  );
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialog.getByLabel('Save with 1 problem(s)').check();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.locator('#root_logoTargetUrl').fill('https://www.technikwelt.example/');
  await expect(page.getByTestId('studio-summary')).toHaveText(/No problems/);
  await expect(fieldOf(page, 'root_logoTargetUrl')).not.toContainText('does not look like a valid URL');
});

test('save shows the diff, changes only the edited lines of the file, and portal validate passes', async ({
  page,
}) => {
  await openStudio(page);
  const file = path.join(tenantsDir, 'technikwelt.json');
  const before = readFileSync(file, 'utf8');
  await page.locator('#root_name').fill('Studio Saved Verlag');
  await page.locator('#root_theme_tokens_colors_primary').fill('#1b5e20');
  await page.getByRole('button', { name: 'Review changes and save' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('studio-diff')).toContainText('-   "name": "TechnikWelt Verlagsgruppe",');
  await expect(dialog.getByTestId('studio-diff')).toContainText('+   "name": "Studio Saved Verlag",');
  await expect(dialog.getByRole('heading')).toHaveText(`Changes to ${file}`);
  await expect(dialog.getByTestId('studio-diff')).toContainText(/^@@ line \d+ @@/);
  await dialog.getByRole('button', { name: 'Save' }).click();
  // The studio names the file where it is: here a folder outside the working directory.
  await expect(page.getByRole('status').filter({ hasText: `Saved ${file}.` })).toBeVisible();

  const after = readFileSync(file, 'utf8');
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  const changed = a.map((line, i) => [line, b[i]] as const).filter(([x, y]) => x !== y);
  expect(changed).toEqual([
    ['  "name": "TechnikWelt Verlagsgruppe",', '  "name": "Studio Saved Verlag",'],
    ['        "primary": "#9a3412",', '        "primary": "#1b5e20",'],
  ]);
  expect(b[1]).toBe('  "$schema": "../schemas/tenant.schema.json",');
  // `portal validate` itself, on the saved file.
  execFileSync(process.execPath, ['cli/bin.mjs', 'validate', file], { cwd: ROOT, stdio: 'pipe' });
});

async function seriousViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol: the studio's CSP (script-src 'self') refuses a script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    // The portal inside the frames has its own suite (accessibility.spec.ts).
    const result = await (
      window as unknown as {
        axe: {
          run: (
            context: object,
            options: object,
          ) => Promise<{
            violations: Array<{
              id: string;
              impact: string;
              help: string;
              nodes: Array<{ target: string[] }>;
            }>;
          }>;
        };
      }
    ).axe.run({ exclude: [['iframe']] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} (${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')})`,
      );
  });
}
