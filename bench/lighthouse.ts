/**
 * The Lighthouse section of `npm run bench` (docs/testing.md "Speed and size"): /login and a signed-in
 * /orders of two demo tenants, measured the way the web measures a page — Lighthouse 12.2.3 (its
 * last major on Node 20), mobile form factor, simulated throttling (both Lighthouse's defaults),
 * categories performance, accessibility, best practices and SEO — against the production server.
 *
 * What runs is what an operator runs: `portal build` of the two tenants into a temporary dist
 * folder, `portal db seed` and `portal serve` on a free port over a temporary data folder (the
 * embedded PostgreSQL, or DATABASE_URL when it is set), each in its own process, so the browser and
 * Lighthouse never share a process with the server they measure. Debian's Chromium
 * (/usr/bin/chromium, CHROMIUM_PATH) is used as it is; no browser is ever downloaded.
 *
 * Figures only: nothing here fails on a score or a time (they move with the machine's load).
 * Each page is measured LIGHTHOUSE_RUNS times (default 3) and the table shows Lighthouse's own
 * median run (closest to the median FCP and time to interactive), with the range of the
 * performance score over the runs: one run of a page whose layout shift depends on which request
 * answers first can be 20 points off the next.
 * LIGHTHOUSE_REPORT_DIR=<dir> also keeps each page's full report there (<tenant>-<page>.html and
 * .json), to open in a browser or in https://googlechrome.github.io/lighthouse/viewer/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { generateReport, type Flags, type Result } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import puppeteer, { type Page } from 'puppeteer-core';
import { ROOT_DIR } from '../cli/paths';
import { authStateKey } from '../engine/domain/sessionStorageKeys';
import { XSRF_COOKIE, XSRF_HEADER } from '../engine/domain/httpHeaders';

const TENANTS = ['technikwelt', 'stadtkurier'];
/** Every demo tenant has this login (README "Demo tenants"). */
const DEMO_EMAIL = 'demo@portal.example';
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs the portal CLI to its end; its output is shown only when it fails. */
async function portal(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, [path.join(ROOT_DIR, 'cli', 'bin.mjs'), ...args], {
    cwd: ROOT_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`portal ${args.join(' ')} exited with ${code}:\n${output}`);
}

/** `portal serve` in its own process; resolves once it says it is ready. */
async function serve(port: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT_DIR, 'cli', 'bin.mjs'), 'serve', '--port', String(port)],
    { cwd: ROOT_DIR, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('ready in')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`portal serve exited (${code}):\n${output}`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Signs the demo user in as a subscriber does, over HTTP against `portal serve`: ask for a magic
 * link, read it from the file outbox (no SMTP_URL is set, so mails land in <data>/outbox), spend
 * its token at /api/login/token. The answer is the session the login screen would keep.
 */
async function signIn(baseUrl: string, tenant: string, outboxDir: string): Promise<unknown> {
  const api = `${baseUrl}/t/${tenant}/api`;
  const headers = {
    'content-type': 'application/json',
    cookie: `${XSRF_COOKIE}=bench`,
    [XSRF_HEADER]: 'bench',
  };
  const asked = await fetch(`${api}/login/magic-link`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: DEMO_EMAIL }),
  });
  if (!asked.ok) throw new Error(`magic link for ${tenant}: ${asked.status} ${await asked.text()}`);
  // Mails leave through the database's queue, so the link appears a moment later.
  let token: string | undefined;
  for (let waited = 0; !token && waited < 30_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const mails = readdirSafe(outboxDir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => JSON.parse(readFileSync(path.join(outboxDir, file), 'utf8')) as OutboxMail)
      .filter((mail) => mail.tenantId === tenant && mail.to === DEMO_EMAIL);
    const link = mails.map((mail) => /https?:\/\/\S+[?&]p=([^&\s]+)/.exec(mail.text)).find(Boolean);
    token = link ? decodeURIComponent(link[1]) : undefined;
  }
  if (!token) throw new Error(`no sign-in mail for ${tenant} in ${outboxDir}`);
  const session = await fetch(`${api}/login/token`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ token }),
  });
  if (!session.ok) throw new Error(`token login for ${tenant}: ${session.status} ${await session.text()}`);
  return session.json();
}

interface OutboxMail {
  tenantId: string;
  to: string;
  text: string;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

interface Measured {
  page: string;
  /** The median run. */
  result: Result;
  /** Performance scores of all runs. */
  performance: number[];
  /** The elements that moved in any run, as Lighthouse's trace names them. */
  shifts: LayoutShift[];
}

const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 3);

/** Measures a page RUNS times: the median run, every run's performance score, and the shifts seen. */
async function measureRuns(
  page: string,
  runOnce: () => Promise<{ result: Result; shifts: LayoutShift[] }>,
): Promise<Measured> {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce());
  return {
    page,
    result: computeMedianRun(runs.map((run) => run.result)),
    performance: runs.map((run) => Math.round((run.result.categories.performance?.score ?? 0) * 100)),
    shifts: runs.flatMap((run) => run.shifts),
  };
}

/** An element that moved in a run, with that run's cumulative layout shift. */
interface LayoutShift {
  value: number;
  element: string;
}

/**
 * One Lighthouse navigation in the given tab. A signed-in page gets its session the way the portal
 * keeps one: the tenant's auth state in the tab's session storage (engine/core/tenantSession.ts),
 * written by a script the tab runs before any of the page's own (puppeteer's evaluateOnNewDocument,
 * so it holds after Lighthouse's storage reset and for the cold load Lighthouse measures). The
 * portal has no session cookie, so extraHeaders or a prepared profile could not sign a page in;
 * the magic-link round trip in the measured tab would measure the login screen instead of /orders.
 */
async function measure(
  page: Page,
  url: string,
  session?: { key: string; value: string },
): Promise<{ result: Result; shifts: LayoutShift[] }> {
  const script = session
    ? await page.evaluateOnNewDocument(
        (key, value, origin) => {
          if (location.origin === origin) sessionStorage.setItem(key, value);
        },
        session.key,
        session.value,
        new URL(url).origin,
      )
    : undefined;
  try {
    const flags: Flags = { logLevel: 'error', output: 'json', onlyCategories: [...CATEGORIES] };
    const runner = await lighthouse(url, flags, undefined, page);
    if (!runner) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (runner.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${runner.lhr.runtimeError.message}`);
    // The elements behind the layout shifts, from Lighthouse's TraceElements gatherer. With
    // Debian's Chromium, newer than Lighthouse 12.2.3 knows, that gatherer and the RootCauses one
    // behind "Avoid large layout shifts" can fail on a trace field that is gone (the artifact is
    // then an error): the list is left out rather than guessed.
    const cls = runner.lhr.audits['cumulative-layout-shift']?.numericValue ?? 0;
    const traceElements = runner.artifacts.TraceElements;
    const shifted = (Array.isArray(traceElements) ? traceElements : [])
      .filter((element) => element.traceEventType === 'layout-shift')
      .map((element) => element.node.selector || element.node.snippet);
    return { result: runner.lhr, shifts: shifted.map((element) => ({ value: cls, element })) };
  } finally {
    if (script) await page.removeScriptToEvaluateOnNewDocument(script.identifier);
  }
}

const score = (result: Result, id: (typeof CATEGORIES)[number]) => {
  const value = result.categories[id]?.score;
  return value === null || value === undefined ? '–' : String(Math.round(value * 100));
};
const audit = (result: Result, id: string) => result.audits[id]?.numericValue ?? NaN;

function printTable(measured: Measured[]): void {
  const rows = measured.map(({ page, result, performance }) => {
    const scripts = (
      result.audits['resource-summary']?.details as
        { items: Array<{ resourceType: string; requestCount: number; transferSize: number }> } | undefined
    )?.items.find((item) => item.resourceType === 'script');
    return [
      page,
      ...CATEGORIES.map((id) => score(result, id)),
      `${Math.min(...performance)}–${Math.max(...performance)}`,
      `${(audit(result, 'first-contentful-paint') / 1000).toFixed(1)} s`,
      `${(audit(result, 'largest-contentful-paint') / 1000).toFixed(1)} s`,
      `${Math.round(audit(result, 'total-blocking-time'))} ms`,
      audit(result, 'cumulative-layout-shift').toFixed(3),
      scripts ? `${scripts.transferSize.toLocaleString('en')} B in ${scripts.requestCount}` : '–',
    ];
  });
  const head = [
    'page',
    'perf',
    'a11y',
    'best pr.',
    'SEO',
    `perf, ${RUNS} runs`,
    'FCP',
    'LCP',
    'TBT',
    'CLS',
    'JS transferred',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const format = (cells: string[]) =>
    `   ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`;
  console.log(format(head));
  for (const row of rows) console.log(format(row));
  // What keeps a page from the goal (performance ≥ 95, the others 100): the opportunities Lighthouse
  // names and the failing audits of the other categories, by title; the metrics are in the table.
  for (const { page, result, shifts } of measured) {
    const failing = CATEGORIES.flatMap((id) =>
      (result.categories[id]?.auditRefs ?? [])
        .map((ref) => ({ ref, found: result.audits[ref.id] }))
        .filter(({ ref, found }) =>
          id === 'performance'
            ? found?.details?.type === 'opportunity' && (found.score ?? 1) < 0.9
            : ref.weight > 0 && found && found.score !== null && found.score < 1,
        )
        .map(({ found }) => `${id}: ${found.title}${found.displayValue ? ` (${found.displayValue})` : ''}`),
    );
    // The console errors themselves, not only that there were some.
    const consoleErrors = result.audits['errors-in-console']?.details as
      { items?: Array<{ description?: string; sourceLocation?: { url?: string } }> } | undefined;
    for (const item of (consoleErrors?.items ?? []).slice(0, 3))
      failing.push(`console: ${item.description?.split('\n')[0].slice(0, 160)}`);
    // The elements that moved in a run with a layout shift worth a look (0.1 is "needs improvement").
    const largest = new Map<string, number>();
    for (const { element, value } of shifts)
      if (value >= 0.05) largest.set(element, Math.max(value, largest.get(element) ?? 0));
    for (const [element, value] of [...largest].sort((a, b) => b[1] - a[1]).slice(0, 3))
      failing.push(`moved in a run with CLS ${value.toFixed(3)}: ${element}`);
    if (failing.length) console.log(`   ${page}:\n${failing.map((f) => `     - ${f}`).join('\n')}`);
  }
}

/** The section: build, seed, serve, measure every page, print the table, and clean up. */
export async function lighthouseSection(): Promise<void> {
  // The build goes beside dist/ on the project's disk, like `portal build` (see bench/run.ts).
  mkdirSync(path.join(ROOT_DIR, 'dist'), { recursive: true });
  const distDir = mkdtempSync(path.join(ROOT_DIR, 'dist', '.lighthouse-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-lighthouse-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORTAL_DIST_DIR: distDir, PORTAL_DATA_DIR: dataDir };
  delete env.SMTP_URL; // the sign-in link is read from the file outbox
  let server: ChildProcess | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await portal(['build', ...TENANTS], env);
    await portal(['db', 'seed'], env);
    const port = await freePort();
    server = await serve(port, env);
    const baseUrl = `http://127.0.0.1:${port}`;
    const sessions = new Map<string, string>();
    for (const tenant of TENANTS)
      sessions.set(tenant, JSON.stringify(await signIn(baseUrl, tenant, path.join(dataDir, 'outbox'))));

    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
    // Lighthouse emulates the phone itself; puppeteer must not set a viewport of its own.
    const browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${chrome.port}`,
      defaultViewport: null,
    });
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    const measured: Measured[] = [];
    for (const tenant of TENANTS) {
      const login = `${baseUrl}/t/${tenant}/login`;
      measured.push(await measureRuns(`${tenant} /login`, () => measure(page, login)));
      const orders = `${baseUrl}/t/${tenant}/orders`;
      const session = { key: authStateKey(tenant), value: sessions.get(tenant)! };
      measured.push(
        await measureRuns(`${tenant} /orders (signed in)`, async () => {
          const signedIn = await measure(page, orders, session);
          // A session the page did not accept would send it to /login and measure that page twice.
          const landed = signedIn.result.finalDisplayedUrl;
          if (!new URL(landed).pathname.endsWith('/orders'))
            throw new Error(`${orders} ended on ${landed}: the session was not taken`);
          return signedIn;
        }),
      );
    }
    await browser.disconnect();
    const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
    if (reportDir) {
      mkdirSync(reportDir, { recursive: true });
      for (const { page, result } of measured) {
        const name = page.replace(/ \(.*\)$/, '').replace(/[ /]+/g, '-');
        writeFileSync(path.join(reportDir, `${name}.html`), generateReport(result, 'html'));
        writeFileSync(path.join(reportDir, `${name}.json`), JSON.stringify(result));
      }
    }
    console.log(
      `\n4. Lighthouse ${measured[0].result.lighthouseVersion}, mobile, simulated throttling, median of ${RUNS} runs, against portal serve (${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'embedded PostgreSQL'})`,
    );
    printTable(measured);
  } finally {
    chrome?.kill();
    if (server) await stop(server);
    rmSync(distDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
