/**
 * `portal preview --shots DIR`: a screenshot of every tenant × screen × width × language
 * (docs/operators.md "Screenshots and what changed"), taken in Debian's Chromium through
 * playwright-core (never a downloaded browser) from a running server with the demo pages on.
 * Screens come from /preview/api/catalogue (the feature registry,
 * server/preview/previewScreens.ts); signed-out screens first, then the demo login is signed in
 * through the dev-only /preview/api/sign-in and every other screen is taken with the user's real
 * ids. Files: DIR/<tenant>/<route-id>.<width>.<lang>.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SHARED_DEMO_EMAIL } from '../../server/seed';
import type { PreviewCatalogueEntry } from '../../server/preview/previewRoutes';
import type { PreviewSignInAnswer } from '../../server/preview/previewSignIn';
import {
  fillScreenPath,
  isAnonymousScreen,
  missingReason,
  type PreviewScreen,
} from '../../server/preview/previewScreens';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The default set stays small enough for a few minutes: a phone and a desktop. */
export const DEFAULT_SHOT_WIDTHS = [360, 1280];
const VIEWPORT_HEIGHT = 800;

export interface ShotOptions {
  baseUrl: string;
  outDir: string;
  /** Tenant ids (default: every tenant of the server). */
  tenants?: string[];
  /** Route ids (default: every screen each tenant serves). */
  routes?: string[];
  widths?: number[];
  /** de / en (default: every language each tenant offers). */
  langs?: Array<'de' | 'en'>;
  /** The demo login to sign in with (default: the one every demo tenant has). */
  user?: string;
  log?: (line: string) => void;
}

export interface Shot {
  tenant: string;
  route: string;
  width: number;
  lang: string;
  /** Relative to outDir. */
  file: string;
  /** Why there is no file: the demo user has nothing this screen needs, or it failed to load. */
  skipped?: string;
}

export const shotFileName = (tenant: string, route: string, width: number, lang: string) =>
  `${tenant}/${route}.${width}.${lang}.png`;

/**
 * A screen has settled when nothing shows a loading state, the main landmark has content (as the
 * axe sweep waits) and the network has been quiet for half a second. The last is for parts that
 * load without a loading state, so that nothing moves when they come (the orders page's purchase
 * orders, engine/features/orders/OrdersScreen.tsx): without it a shot taken before them and one
 * after differ though nothing changed. What they load may show a loading state again: checked once more.
 */
async function settle(page: Page): Promise<void> {
  const quiet = () =>
    page
      .waitForFunction(
        () =>
          // The menu's placeholder too: it holds the menu's place while the menu's code loads.
          !document.querySelector('.loading, [aria-busy="true"], .sidebar-placeholder') &&
          (document.querySelector('main')?.textContent ?? '').trim().length > 0,
        undefined,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
  await quiet();
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await quiet();
  await page.evaluate(() => document.fonts.ready.then(() => undefined)).catch(() => undefined);
}

const withLang = (url: string, lang: string) => `${url}${url.includes('?') ? '&' : '?'}lang=${lang}`;

export async function takeShots(options: ShotOptions): Promise<Shot[]> {
  const log = options.log ?? (() => undefined);
  const widths = options.widths?.length ? options.widths : DEFAULT_SHOT_WIDTHS;
  const user = options.user ?? SHARED_DEMO_EMAIL;
  const catalogueAnswer = await fetch(`${options.baseUrl}/preview/api/catalogue`);
  if (!catalogueAnswer.ok)
    throw new Error(
      `${options.baseUrl}/preview/api/catalogue answered ${catalogueAnswer.status}: the server needs its demo pages (portal preview, portal start, portal dev)`,
    );
  const catalogue = (await catalogueAnswer.json()) as PreviewCatalogueEntry[];
  const unknown = (options.tenants ?? []).filter((id) => !catalogue.some((t) => t.id === id));
  if (unknown.length)
    throw new Error(
      `unknown tenant(s): ${unknown.join(', ')}. Known: ${catalogue.map((t) => t.id).join(', ')}`,
    );
  const tenants = options.tenants?.length
    ? catalogue.filter((t) => options.tenants!.includes(t.id))
    : catalogue;
  const knownRoutes = new Set(catalogue.flatMap((t) => t.screens.map((s) => s.id)));
  const unknownRoutes = (options.routes ?? []).filter((id) => !knownRoutes.has(id));
  if (unknownRoutes.length)
    throw new Error(
      `unknown route id(s): ${unknownRoutes.join(', ')}. Known: ${[...knownRoutes].join(', ')}`,
    );

  const shots: Shot[] = [];
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const tenant of tenants) {
      const screens = tenant.screens.filter((s) => !options.routes?.length || options.routes.includes(s.id));
      const langs = (
        options.langs?.length ? options.langs : tenant.locales.map((l) => l.slice(0, 2) as 'de' | 'en')
      ).filter((lang) => tenant.locales.some((l) => l.startsWith(lang)));
      if (!screens.length || !langs.length) continue;
      for (const lang of langs) {
        // A context per tenant and language: its own session storage (nothing of one tenant's session shows in
        // another's shots) and the browser's own locale, which formats numbers and dates. Not native date
        // inputs: headless Chromium draws those as MM/DD/YYYY in every locale (docs/operators.md).
        const context = await browser.newContext({
          viewport: { width: widths[0], height: VIEWPORT_HEIGHT },
          locale: lang === 'de' ? 'de-DE' : 'en-GB',
          deviceScaleFactor: 1,
          reducedMotion: 'reduce',
          colorScheme: 'light',
        });
        const page = await context.newPage();
        const take = async (screen: PreviewScreen, portalPath: string | undefined, why?: string) => {
          for (const width of widths) {
            const file = shotFileName(tenant.id, screen.id, width, lang);
            if (portalPath === undefined) {
              shots.push({
                tenant: tenant.id,
                route: screen.id,
                width,
                lang,
                file,
                skipped: why ?? `${user} has nothing this screen needs`,
              });
              continue;
            }
            await page.setViewportSize({ width, height: VIEWPORT_HEIGHT });
            try {
              await page.goto(withLang(`${options.baseUrl}/t/${tenant.id}/${portalPath}`, lang), {
                waitUntil: 'load',
              });
              await settle(page);
              mkdirSync(path.join(options.outDir, tenant.id), { recursive: true });
              await page.screenshot({
                path: path.join(options.outDir, file),
                fullPage: true,
                animations: 'disabled',
                caret: 'hide',
              });
              shots.push({ tenant: tenant.id, route: screen.id, width, lang, file });
              log(`shot ${file}`);
            } catch (error) {
              shots.push({
                tenant: tenant.id,
                route: screen.id,
                width,
                lang,
                file,
                skipped: String((error as Error).message ?? error).split('\n')[0],
              });
              log(`failed ${file}: ${(error as Error).message}`);
            }
          }
        };
        // Signed out first: the login page sends a signed-in user on to the orders.
        for (const screen of screens.filter(isAnonymousScreen)) await take(screen, screen.path);
        const signedIn = screens.filter((screen) => !isAnonymousScreen(screen));
        if (signedIn.length) {
          const answer = await fetch(`${options.baseUrl}/preview/api/sign-in`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ tenant: tenant.id, email: user, lang }),
          });
          const body = (await answer.json()) as PreviewSignInAnswer & { error?: { message: string } };
          if (!answer.ok)
            throw new Error(`signing in ${user} on ${tenant.id}: ${body.error?.message ?? answer.status}`);
          await page.goto(`${options.baseUrl}${body.link}`);
          const signedInOk = await page
            .waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: 20_000 })
            .then(
              () => true,
              () => false,
            );
          if (!signedInOk) {
            // The other shots are still worth having: these signed-in ones are listed as skipped.
            log(`failed to sign ${user} in on ${tenant.id}: the portal stayed on its login page`);
            for (const screen of signedIn)
              for (const width of widths)
                shots.push({
                  tenant: tenant.id,
                  route: screen.id,
                  width,
                  lang,
                  file: shotFileName(tenant.id, screen.id, width, lang),
                  skipped: 'the sign-in did not finish',
                });
          } else {
            for (const screen of signedIn)
              await take(
                screen,
                fillScreenPath(screen.path, body.ids, screen.id),
                missingReason(screen.path, body.ids, screen.id, user),
              );
          }
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return shots;
}
