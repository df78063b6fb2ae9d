/**
 * No accessibility violations (docs/architecture.md "Quality bars the design must make easy"):
 * axe-core on every screen of every demo tenant at both widths (the desktop and phone projects): on
 * desktop in each language the tenant offers, on the phone in its default one (what the width
 * changes is the layout and the menu, not which texts fill them; the second language there doubled
 * the sweep's two and a half minutes of a CI run). No violation of any impact, moderate and minor included (a page
 * without an h1 while it loads, a heading level skipped are moderate ones). The screens come from
 * the feature registry (engine/features/index.ts), so a new feature's routes join the sweep without
 * touching this file; path parameters are filled with the demo user's real ids.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { FEATURES, isFeatureEnabled } from '../../engine/features';
import { ROUTES } from '../../engine/domain/routeRefs';
import { signInByMagicLink } from './support';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DEMO = 'demo@portal.example';
const LOGIN_TEXTS = {
  'de-DE': {
    emailLabel: 'E-Mail-Adresse',
    sendLink: 'Anmeldelink senden',
    linkSent: /Bitte prüfen Sie Ihr Postfach/,
  },
  'en-GB': { emailLabel: 'E-mail address', sendLink: 'Send login link', linkSent: /Please check your inbox/ },
} as const;

interface TenantFile {
  id: string;
  defaultLocale: 'de-DE' | 'en-GB';
  locales: Array<'de-DE' | 'en-GB'>;
  features: string[];
}
const TENANTS: TenantFile[] = ['stadtkurier', 'northern-review', 'technikwelt', 'gartenfreunde'].map((id) =>
  JSON.parse(readFileSync(`tenants/${id}.json`, 'utf8')),
);

interface ScreenRoute {
  id: string;
  path: string;
  access: string;
}

/** Every route an enabled feature serves (redirects and the catch-all aside: they show other screens). */
function screensOf(tenant: TenantFile): ScreenRoute[] {
  return FEATURES.filter((feature) => isFeatureEnabled(feature, tenant.features)).flatMap((feature) =>
    feature.routes
      .filter((route) => route.ref !== ROUTES.catchAll)
      .map((route) => ({ id: route.ref.id, path: route.ref.path, access: route.access })),
  );
}

interface DemoIds {
  id?: string;
  bundleNumber?: string;
  bpNumber?: string;
}

/** The demo user's ids, read with the page's own session the way the screens read them. */
async function demoIds(page: Page, tenantId: string): Promise<DemoIds> {
  return page.evaluate(async (tenant) => {
    const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${tenant}`) ?? '{}');
    const response = await fetch(`/t/${tenant}/api/subscriptions`, {
      headers: { 'x-auth-token': auth.accessToken },
    });
    const list = (await response.json()) as Array<{
      id: string;
      orderStatus?: string;
      bundleNumber?: string | null;
      currentRoleBusinessPartner?: { bpNumber?: string };
    }>;
    const active = list.find((s) => s.orderStatus === 'A' || s.orderStatus === 'AK') ?? list[0];
    return {
      id: active?.id,
      bundleNumber: list.find((s) => s.bundleNumber)?.bundleNumber ?? undefined,
      bpNumber: active?.currentRoleBusinessPartner?.bpNumber,
    };
  }, tenantId);
}

function fill(path: string, ids: DemoIds): string | undefined {
  let missing = false;
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value =
      (ids as Record<string, string | undefined>)[name] ?? (name === 'licenseId' ? '0' : undefined);
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? undefined : filled;
}

/** A screen has settled when nothing shows a loading state and the main landmark has content. */
async function settle(page: Page) {
  await page
    .waitForFunction(
      () =>
        !document.querySelector('.loading, [aria-busy="true"]') &&
        (document.querySelector('main')?.textContent ?? '').trim().length > 0,
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the portal's CSP (script-src 'self') refuses a script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            context: Document,
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
    ).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    );
  });
  return violations;
}

for (const tenant of TENANTS) {
  test(`${tenant.id}: every screen, in every language it offers, has no axe violation of any impact`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(600_000);
    const screens = screensOf(tenant);
    const locales = testInfo.project.name === 'phone' ? [tenant.defaultLocale] : tenant.locales;
    const problems: string[] = [];
    const check = async (path: string, locale: string) => {
      const lang = locale.slice(0, 2);
      await page.goto(`/t/${tenant.id}/${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
      const started = Date.now();
      await settle(page);
      if (process.env.AXE_SWEEP_TIMES)
        console.log(`${tenant.id} /${path} [${locale}] ${Date.now() - started} ms`);
      for (const violation of await axeViolations(page)) problems.push(`/${path} [${locale}] ${violation}`);
    };

    // Anonymous screens as a visitor sees them, then every screen signed in as the demo user.
    for (const screen of screens.filter((s) => s.access === 'anonymous' && !s.path.includes(':'))) {
      for (const locale of locales) await check(screen.path, locale);
    }
    // The portal remembers the last language shown (per tenant): sign in in the tenant's default.
    await page.goto(`/t/${tenant.id}/login?lang=${tenant.defaultLocale.slice(0, 2)}`);
    await signInByMagicLink(page, tenant.id, DEMO, LOGIN_TEXTS[tenant.defaultLocale]);
    const ids = await demoIds(page, tenant.id);
    const signedIn = screens.filter((s) => s.access !== 'anonymous' || s.path.includes(':'));
    let checked = 0;
    for (const screen of signedIn) {
      const path = fill(screen.path, ids);
      if (path === undefined) continue; // the demo user has nothing this screen needs (no bundle, say)
      for (const locale of locales) await check(path, locale);
      checked++;
    }
    expect(checked, 'signed-in screens checked').toBeGreaterThan(0);
    expect(problems, problems.join('\n')).toEqual([]);
  });
}
