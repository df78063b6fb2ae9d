import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

interface OutboxEntry {
  tenantId: string;
  to: string;
  subject: string;
  date: string;
  text: string;
}

/** Waits for the newest e-mail to `to` from `tenantId` sent after `since`, via the outbox viewer. */
/** Sign-in link mails (magic link), not the partner sign-in links other journeys send the same person. */
export const MAGIC_LINK_SUBJECT = /Ihr Anmeldelink|Your login link/;

export async function waitForMail(
  request: APIRequestContext,
  tenantId: string,
  to: string,
  since: string,
  subject?: RegExp,
): Promise<OutboxEntry> {
  let found: OutboxEntry | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/outbox', { headers: { accept: 'application/json' } });
        const entries = (await response.json()) as OutboxEntry[];
        found = entries.find(
          (entry) =>
            entry.tenantId === tenantId &&
            entry.to === to &&
            entry.date >= since &&
            (!subject || subject.test(entry.subject)),
        );
        return Boolean(found);
      },
      // The sender wakes when the mail's transaction commits: a mail is there within a few tenths.
      { timeout: 15_000, intervals: [50, 100, 150, 250, 500] },
    )
    .toBe(true);
  return found!;
}

/** The link of the newest e-mail to `to` sent after `since` (a confirmation mailed to an address on record). */
export async function mailedLink(page: Page, tenantId: string, to: string, since: string): Promise<string> {
  return linkIn((await waitForMail(page.request, tenantId, to, since)).text);
}

export function linkIn(text: string): string {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in e-mail:\n${text}`);
  return match[0];
}

/**
 * Signs in as a subscriber would: open a protected page, land on /login, ask for a magic link,
 * open it from the outbox, and arrive back on the page first asked for.
 */
export async function signInByMagicLink(
  page: Page,
  tenantId: string,
  email: string,
  texts: { emailLabel: string; sendLink: string; linkSent: RegExp },
) {
  // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
  const since = new Date().toISOString();
  await page.goto(`/t/${tenantId}/orders`);
  // An embedded portal (northern-review) stays on the page asked for and offers the way in (portal-core.md §2).
  const embeddedWayIn = page.locator('.embedded-sign-in a.button');
  await expect(page.locator('.login, .embedded-sign-in').first()).toBeVisible();
  if ((await embeddedWayIn.count()) > 0) await embeddedWayIn.click();
  await expect(page).toHaveURL(new RegExp(`/t/${tenantId}/login`));
  // Tenants may offer several forms with an e-mail field: use the one that sends the link.
  const form = page.locator('form', { has: page.getByRole('button', { name: texts.sendLink }) });
  await form.getByLabel(texts.emailLabel).fill(email);
  await form.getByRole('button', { name: texts.sendLink }).click();
  await expect(page.getByText(texts.linkSent)).toBeVisible();
  const mail = await waitForMail(page.request, tenantId, email, since, MAGIC_LINK_SUBJECT);
  await page.goto(linkIn(mail.text));
  await expect(page).toHaveURL(new RegExp(`/t/${tenantId}/orders$`));
}

/**
 * The signed-in user's subscriptions as the API returns them, read with the page's own session and,
 * as the screens do, in the page's language (the server answers product names in it).
 */
export async function subscriptionsOfSession(
  page: Page,
  tenantId: string,
): Promise<Array<{ id: string; displayName: string }>> {
  return page.evaluate(async (id) => {
    const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${id}`) ?? '{}');
    const response = await fetch(`/t/${id}/api/subscriptions`, {
      headers: { 'x-auth-token': auth.accessToken, 'accept-language': document.documentElement.lang },
    });
    return response.json();
  }, tenantId);
}

/**
 * The cancellation infos of a subscription and reason (`GET …/cancellation-infos`), read with the
 * page's own session; null when the flow refuses it.
 */
async function cancellationInfosOf(
  page: Page,
  tenantId: string,
  subscriptionId: string,
  reason: string,
): Promise<{ recommendations: Array<{ id: string }>; renewedUntil?: string | null } | null> {
  return page.evaluate(
    async ({ id, subscription, why }) => {
      const auth = JSON.parse(sessionStorage.getItem(`portal.authState.${id}`) ?? '{}');
      const response = await fetch(
        `/t/${id}/api/subscriptions/${subscription}/cancellation-infos?cancellationReason=${why}`,
        { headers: { 'x-auth-token': auth.accessToken } },
      );
      return response.ok ? response.json() : null;
    },
    { id: tenantId, subscription: subscriptionId, why: reason },
  );
}

/**
 * The end of the renewed term a cancellation would take effect on, while a renewal of the
 * subscription runs (engine/domain/lifecycle.ts renewedUntil); null when none runs. A renewal that
 * runs is cancelled to its end, the one date then offered.
 */
export async function renewedUntilOf(
  page: Page,
  tenantId: string,
  subscriptionId: string,
  reason: string,
): Promise<string | null> {
  return (await cancellationInfosOf(page, tenantId, subscriptionId, reason))?.renewedUntil ?? null;
}

/**
 * The retention offers the cancellation flow would show for a subscription and reason: a journey
 * picks a subscription whose offers are still open (one retention offer a year per subscription,
 * engine/domain/lifecycle.ts).
 */
export async function retentionOfferIds(
  page: Page,
  tenantId: string,
  subscriptionId: string,
  reason: string,
): Promise<string[]> {
  const infos = await cancellationInfosOf(page, tenantId, subscriptionId, reason);
  return (infos?.recommendations ?? []).map((offer) => offer.id);
}

export type ScreenLocale = 'de-DE' | 'en-GB';

/**
 * The screens' own texts (engine/<file> paths such as 'core/texts.json'), so a journey reads what
 * the subscriber reads: `screenTexts(files)(locale)(key, vars)`, placeholders filled, the first
 * file that has the key winning.
 */
export function screenTexts(files: readonly string[]) {
  const tables = files.map(
    (file) =>
      JSON.parse(readFileSync(`engine/${file}`, 'utf8')) as Record<ScreenLocale, Record<string, string>>,
  );
  return (locale: ScreenLocale) =>
    (key: string, vars: Record<string, string | number> = {}) => {
      const table = tables.find((t) => t[locale][key] !== undefined);
      if (!table) throw new Error(`no text ${key}`);
      return table[locale][key].replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? ''));
    };
}

/**
 * The screen's own h1: while a screen's code loads, the loading notice stands in as the page's h1
 * (engine/ui/Loading.tsx), so "an h1 is visible" alone does not mean the screen is there.
 */
export const screenHeading = (page: Page) => page.locator('h1:not(.loading-heading)').first();

/**
 * Opens the phone's folded menu: the toggle may draw, or the shell draw it again, after the page
 * (a click on a toggle just replaced is lost), so it is clicked until the menu says it is open.
 */
export async function openPhoneMenu(page: Page) {
  const toggle = page.locator('.sidebar-toggle');
  await expect(async () => {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true', { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
