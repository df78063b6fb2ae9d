/**
 * Journeys through the public pages (portal-core.md §2 "FAQ", "Contact", "Issue calendar", the
 * catch-all and external navigation links) on stadtkurier and technikwelt, in German and English,
 * on desktop and phone (the Playwright projects).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loadValidTenants } from '../../cli/commands/loadValidTenants';
import {
  linkedSubscription,
  oversizedPng,
  TINY_PDF,
  unlinkedSubscription,
} from '../support/publicPagesFixtures';
import { linkIn, MAGIC_LINK_SUBJECT, waitForMail } from './support';

const tenantFile = (id: string) => JSON.parse(readFileSync(`tenants/${id}.json`, 'utf8'));
const resolvedTenant = async (id: string) => (await loadValidTenants([id]))[0] as never;

/** Signs in through the magic-link call and the link from the outbox, as a subscriber would. */
async function signIn(page: Page, tenantId: string, email: string) {
  await page.goto(`/t/${tenantId}/faq`);
  // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
  const since = new Date().toISOString();
  const status = await page.evaluate(
    async ([tenant, address]) => {
      const xsrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('XSRF-TOKEN='))!
          .slice('XSRF-TOKEN='.length),
      );
      const response = await fetch(`/t/${tenant}/api/login/magic-link`, {
        method: 'POST',
        // As the login screen does: in the page's language, which the mailed link then keeps.
        headers: {
          'content-type': 'application/json',
          'x-xsrf-token': xsrf,
          'accept-language': document.documentElement.lang,
        },
        body: JSON.stringify({ email: address }),
      });
      return response.status;
    },
    [tenantId, email],
  );
  expect(status).toBe(202);
  const mail = await waitForMail(page.request, tenantId, email, since, MAGIC_LINK_SUBJECT);
  await page.goto(linkIn(mail.text));
  await expect(page).toHaveURL(new RegExp(`/t/${tenantId}/orders$`));
}

function tempFile(name: string, content: Buffer): string {
  const file = path.join(tmpdir(), `${Date.now()}-${Math.random().toString(36).slice(2)}-${name}`);
  writeFileSync(file, content);
  return file;
}

test.describe('FAQ', () => {
  test('an anonymous visitor sees only public entries, grouped, and never receives a non-public one', async ({
    page,
  }) => {
    const stadtkurier = tenantFile('stadtkurier');
    const hidden = stadtkurier.faq.entries.find((e: { public?: boolean }) => !e.public).title['de-DE'];
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'document' || response.url().endsWith('/api/faq'))
        bodies.push(await response.text());
    });
    await page.goto('/t/stadtkurier/faq');
    await expect(page.getByRole('heading', { level: 1, name: 'Häufige Fragen' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Zustellung' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Allgemeine Fragen' })).toBeVisible();
    await expect(page.getByText('Wie lese ich das E-Paper?')).toBeVisible();
    await expect(page.getByText(hidden)).toHaveCount(0);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bodies) expect(body).not.toContain(hidden);
  });

  test('the category filter keeps one or many categories, and #anchor opens its entry', async ({ page }) => {
    // stadtkurier offers only German: ?lang=en keeps it German
    // (docs/operators.md "Languages: one at a time").
    await page.goto('/t/stadtkurier/faq?category=e-paper&lang=en');
    await expect(page.getByRole('heading', { level: 1, name: 'Häufige Fragen' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(['E-Paper']);
    await page.goto('/t/stadtkurier/faq?category=e-paper,general');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(['E-Paper', 'Allgemeine Fragen']);
    await page.goto('/t/stadtkurier/faq#urlaubsservice');
    const entry = page.locator('#faq-urlaubsservice');
    await expect(entry).toHaveAttribute('open', '');
    await expect(entry.getByText('Änderungen sind bis zwei Werktage')).toBeInViewport();
    // The entry element's own id, as a link copied from the page's markup names it, opens it too.
    await page.goto('/t/stadtkurier/faq#faq-kontakt-zeiten');
    await expect(page.locator('#faq-kontakt-zeiten')).toHaveAttribute('open', '');
  });

  for (const lang of ['de', 'en'] as const) {
    test(`technikwelt (${lang}): the tenant heading, and non-public entries only after sign-in`, async ({
      page,
    }) => {
      const technikwelt = tenantFile('technikwelt');
      const locale = lang === 'de' ? 'de-DE' : 'en-GB';
      const hidden = technikwelt.faq.entries.find((e: { public?: boolean }) => !e.public).title[locale];
      await page.goto(`/t/technikwelt/faq?lang=${lang}`);
      await expect(page.locator('.faq-heading')).toContainText(
        lang === 'de' ? 'Antworten rund um Ihr Abo' : 'Answers about your',
      );
      await expect(page.locator('.faq-entry').first()).toBeVisible();
      await expect(page.getByText(hidden)).toHaveCount(0);
      await signIn(page, 'technikwelt', 'anna.schmidt@technikwelt.example');
      await page.goto(`/t/technikwelt/faq?lang=${lang}`);
      await page.getByText(hidden).click();
      await expect(page.locator('.faq-entry[open] .faq-answer')).toBeVisible();
    });
  }
});

test.describe('contact', () => {
  test('stadtkurier: the anonymous form names every missing field, then sends and mails the message', async ({
    page,
  }) => {
    await page.goto('/t/stadtkurier/contact');
    await expect(page.getByText('Pflichtfelder sind mit * gekennzeichnet.')).toBeVisible();
    await page.getByLabel('Ihr Anliegen').selectOption({ label: 'Allgemeine Anfrage' });
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(page.getByText('Bitte füllen Sie dieses Feld aus.')).toHaveCount(6);
    await page.getByLabel('Anrede').selectOption({ label: 'Frau' });
    await page.getByLabel('Vorname').fill('Erika');
    await page.getByLabel('Nachname').fill('Musterfrau');
    await page.getByLabel('E-Mail-Adresse').fill('erika.musterfrau@example.org');
    await page.getByLabel('Kunden- oder Auftragsnummer').fill('123');
    await page.getByLabel('Ihre Nachricht').fill('Bitte schicken Sie mir ein Probeabo.');
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(page.getByText('Bitte geben Sie eine gültige Auftragsnummer ein.')).toBeVisible();
    await page.getByLabel('Betreff').selectOption({ label: 'Sonstiges' });
    await page.getByLabel('Ich habe keine Auftragsnummer').check();
    await expect(page.getByLabel('Kunden- oder Auftragsnummer')).toHaveCount(0);
    // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
    const since = new Date().toISOString();
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    const dialog = page.getByRole('dialog', { name: 'Vielen Dank für Ihre Nachricht' });
    await expect(dialog).toBeVisible();
    const mail = await waitForMail(page.request, 'stadtkurier', 'leserservice@stadtkurier.example', since);
    expect(mail.text).toContain('Bitte schicken Sie mir ein Probeabo.');
    expect(mail.text).toContain('keine Auftragsnummer vorhanden');
    expect(mail.text).toContain('Betrifft: Sonstiges');
    await dialog.getByRole('button', { name: 'Schließen' }).click();
    await expect(dialog).toHaveCount(0);
  });

  for (const lang of ['de', 'en'] as const) {
    test(`technikwelt (${lang}): an oversized and a disguised upload are refused, a PDF under another name is sent as a PDF`, async ({
      page,
    }) => {
      const t =
        lang === 'de'
          ? {
              topic: 'Ihr Anliegen',
              activity: 'Heft nicht erhalten oder beschädigt',
              title: 'Anrede',
              ms: 'Frau',
              first: 'Vorname',
              last: 'Nachname',
              email: 'E-Mail-Adresse',
              publication: 'Publikation',
              order: 'Kunden- oder Auftragsnummer',
              message: 'Ihre Nachricht',
              upload: 'Datei anhängen (optional)',
              send: 'Nachricht senden',
              tooLarge: 'Die Datei ist zu groß',
              wrongType: 'Diese Datei können wir nicht annehmen',
              errorTitle: 'Nachricht nicht gesendet',
              close: 'Schließen',
              success: 'Vielen Dank für Ihre Nachricht',
            }
          : {
              topic: 'Your topic',
              activity: 'Issue missing or damaged',
              title: 'Title',
              ms: 'Ms',
              first: 'First name',
              last: 'Last name',
              email: 'E-mail address',
              publication: 'Publication',
              order: 'Customer or order number',
              message: 'Your message',
              upload: 'Attach a file (optional)',
              send: 'Send message',
              tooLarge: 'The file is too large',
              wrongType: 'We cannot accept this file',
              errorTitle: 'Message not sent',
              close: 'Close',
              success: 'Thank you for your message',
            };
      await page.goto(`/t/technikwelt/contact?lang=${lang}`);
      await page.getByLabel(t.topic).selectOption({ label: t.activity });
      await page.getByLabel(t.title).selectOption({ label: t.ms });
      await page.getByLabel(t.first).fill('Erika');
      await page.getByLabel(t.last).fill('Muster');
      await page.getByLabel(t.email).fill('erika@example.org');
      await page.getByLabel(t.publication).selectOption({ label: 'Technikwelt Magazin' });
      await page.getByLabel(t.order).fill('4001234567');
      await page.getByLabel(t.message).fill('Das Heft kam zerknittert an.');
      const upload = page.getByLabel(t.upload);

      await upload.setInputFiles(tempFile('scan.png', oversizedPng()));
      await expect(page.getByText(t.tooLarge)).toBeVisible();
      await expect(upload).toHaveValue('');

      // A text file named .png: the page reads its bytes, as the server does, and refuses it at once.
      await upload.setInputFiles(tempFile('photo.png', Buffer.from('this is not an image\n')));
      await expect(page.getByText(t.wrongType)).toBeVisible();
      await expect(upload).toHaveValue('');

      // A PDF saved under a name of another type is a PDF, and goes on as one.
      // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
      const since = new Date().toISOString();
      await upload.setInputFiles(tempFile('Zustellung.html', TINY_PDF));
      await expect(page.getByText(t.wrongType)).toHaveCount(0);
      await page.getByRole('button', { name: t.send }).click();
      await expect(page.getByRole('dialog', { name: t.success })).toBeVisible();
      const mail = await waitForMail(page.request, 'technikwelt', 'aboservice@technikwelt.example', since);
      expect(mail.text).toMatch(/Zustellung\.pdf \(application\/pdf, \d+ bytes\)/);
    });
  }

  test("stadtkurier: the linked-page activity checks order number and zip code, mails a sign-in link to the address on record, and the link opens the subscription's page with returnTo=contact", async ({
    page,
  }, testInfo) => {
    // Each project links its own subscription: the server (and its data) is shared by both runs.
    // Only a partner with an address on record can be signed in: knowing things about someone opens
    // no account (docs/architecture.md "Sign-in safety").
    const tenant = await resolvedTenant('stadtkurier');
    const candidates = [0, 1, 2, 3, 4, 5]
      .map((n) => unlinkedSubscription(tenant, new Date(), n))
      .filter((s) => s.email);
    const target = candidates[testInfo.project.name === 'phone' ? 1 : 0];
    await page.goto('/t/stadtkurier/contact?activity=KUENDIGUNG');
    await expect(page.getByText('Kündigen können Sie direkt online.')).toBeVisible();
    await page.getByLabel('Kunden- oder Auftragsnummer').fill(target.orderNumber);
    await page.getByLabel('Postleitzahl').fill('00000');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await expect(page.getByText('Die Postleitzahl passt nicht zur Auftragsnummer.')).toBeVisible();
    // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
    const since = new Date().toISOString();
    await page.getByLabel('Postleitzahl').fill(target.zipcode);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await expect(
      page.getByText(/Wir haben einen Anmeldelink an die für dieses Abonnement hinterlegte Adresse/),
    ).toBeVisible();
    // The page never shows the address itself, only its masked form.
    await expect(page.getByText(target.email!)).toHaveCount(0);
    const mail = await waitForMail(page.request, 'stadtkurier', target.email!, since);
    await page.goto(linkIn(mail.text));
    // The session the link opens is the subscription's: the linked page /cancellation becomes that
    // subscription's cancellation, which it may open (the account's pages it may not).
    await expect(page).toHaveURL(/\/t\/stadtkurier\/subscriptions\/[^/]+\/cancellation\?returnTo=contact$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Abonnement kündigen' })).toBeVisible();
  });

  test('technikwelt (en): a subscription that belongs to an account mails the sign-in link to that account and shows only its masked address; composing instead stays possible', async ({
    page,
  }) => {
    const target = linkedSubscription(await resolvedTenant('technikwelt'), new Date());
    await page.goto('/t/technikwelt/contact?lang=en&activity=ADRESSE');
    await page.getByLabel('Customer or order number').fill(target.orderNumber);
    await page.getByLabel('Postcode').fill(target.zipcode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(
      page.getByText(
        // Masked as engine/domain/fieldRules.ts maskEmail says: not even the domain is told.
        /We have sent a login link to .\*\*\*@t\*\*\*\.example, the address we hold for this subscription/,
      ),
    ).toBeVisible();
    await expect(page.getByText(target.email)).toHaveCount(0);
    await page.getByRole('button', { name: 'Write a message instead' }).click();
    await expect(page.getByLabel('Your message')).toBeVisible();
  });

  test('technikwelt: a signed-in user writes about a preselected subscription', async ({ page }) => {
    await signIn(page, 'technikwelt', 'anna.schmidt@technikwelt.example');
    const subscriptions = await page.evaluate(async () => {
      const auth = JSON.parse(sessionStorage.getItem('portal.authState.technikwelt') ?? '{}');
      return (
        await fetch('/t/technikwelt/api/subscriptions', { headers: { 'x-auth-token': auth.accessToken } })
      ).json();
    });
    const subscription = subscriptions[0];
    // A linked-page activity offers the page itself (with returnTo=contact) or a message.
    await page.goto('/t/technikwelt/contact?activity=ADRESSE');
    await expect(page.getByRole('link', { name: 'Jetzt online erledigen' })).toHaveAttribute(
      'href',
      '/t/technikwelt/business-partners?returnTo=contact',
    );
    await page.getByRole('button', { name: 'Stattdessen eine Nachricht schreiben' }).click();
    await expect(page.getByLabel('Ihre Nachricht')).toBeVisible();
    await page.goto(`/t/technikwelt/contact?activity=WIDERRUF&subscriptionId=${subscription.id}`);
    await expect(page.getByLabel('Abonnement')).toHaveValue(subscription.id);
    await expect(page.getByLabel('Vorname')).toHaveCount(0);
    await page.getByLabel('Ihre Nachricht').fill('Ich möchte meine Kündigung widerrufen.');
    // Not a second earlier: mails leave through a queue, so an earlier journey's mail may be written just before.
    const since = new Date().toISOString();
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(page.getByRole('dialog', { name: 'Vielen Dank für Ihre Nachricht' })).toBeVisible();
    const mail = await waitForMail(page.request, 'technikwelt', 'aboservice@technikwelt.example', since);
    expect(mail.text).toContain(subscription.orderNumber);
    expect(mail.text).toContain('anna.schmidt@technikwelt.example');
  });
});

test.describe('issue calendar', () => {
  test('stadtkurier: the picker searches fuzzily, hides the blacklisted title and opens a calendar with dots', async ({
    page,
  }) => {
    await page.goto('/t/stadtkurier/issue-calendar');
    const search = page.getByPlaceholder('Suche...');
    await expect(page.locator('.publication-card')).toHaveCount(2);
    await expect(page.getByText('Stadtkurier E-Paper')).toHaveCount(0);
    await search.fill('tgzt');
    await expect(page.locator('.publication-card')).toHaveCount(1);
    await expect(page.locator('.publication-card h2')).toHaveText('Stadtkurier Tageszeitung');
    await search.fill('qqq');
    await expect(page.getByText('Es wurden keine Publikationen gefunden.')).toBeVisible();
    await search.fill('');
    await page.getByRole('link', { name: 'Stadtkurier Tageszeitung' }).click();
    await expect(page).toHaveURL(/\/issue-calendar\/publications\/SKT$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Stadtkurier Tageszeitung' })).toBeVisible();
    await expect(page.locator('.calendar-dot').first()).toBeVisible();
    // Mode "calendar": no toggle.
    await expect(page.getByRole('button', { name: 'Liste' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Zurück zur Übersicht' }).click();
    await expect(page).toHaveURL(/\/issue-calendar$/);
    await page.goto('/t/stadtkurier/issue-calendar/publications/SKT?hideBackToOverview=true&lang=en');
    await expect(page.locator('.calendar-dot').first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to overview' })).toHaveCount(0);
    await page.goto('/t/stadtkurier/issue-calendar/publications/SKE');
    await expect(page.getByText('Diese Publikation gibt es im Erscheinungskalender nicht.')).toBeVisible();
  });

  for (const lang of ['de', 'en'] as const) {
    test(`technikwelt (${lang}): mode "any" toggles calendar and list; signed in, the subscription filter lists all subscriptions`, async ({
      page,
    }) => {
      const t =
        lang === 'de'
          ? { list: 'Liste', calendar: 'Kalender', filter: 'Abonnement', all: 'Alle Abonnements' }
          : { list: 'List', calendar: 'Calendar', filter: 'Subscription', all: 'All subscriptions' };
      await page.goto(`/t/technikwelt/issue-calendar?lang=${lang}`);
      await expect(page.locator('.publication-card')).toHaveCount(3);
      await expect(page.getByText('Technikwelt Sonderhefte')).toHaveCount(0);
      await page.getByRole('link', { name: 'Technikwelt Magazin' }).click();
      await expect(page.getByRole('button', { name: t.calendar })).toHaveAttribute('aria-pressed', 'true');
      await page.getByRole('button', { name: t.list }).click();
      await expect(page.locator('.issue-list-item').first()).toBeVisible();
      await signIn(page, 'technikwelt', 'anna.schmidt@technikwelt.example');
      await page.goto(`/t/technikwelt/issue-calendar?lang=${lang}`);
      const filter = page.getByLabel(t.filter);
      await expect(filter.locator('option').first()).toHaveText(t.all);
      expect(await filter.locator('option').count()).toBeGreaterThan(1);
      await expect(page.locator('.calendar-dot').first()).toBeVisible();
      await filter.selectOption({ index: 1 });
      await page.getByRole('button', { name: t.list }).click();
      await expect(page.locator('.issue-list-item, .alert').first()).toBeVisible();
    });
  }
});

test.describe('external pages and the catch-all', () => {
  for (const lang of ['de', 'en'] as const) {
    test(`technikwelt (${lang}): menu links open inside the portal with the user id, or in a new or the same tab`, async ({
      page,
      isMobile,
    }) => {
      await signIn(page, 'technikwelt', 'anna.schmidt@technikwelt.example');
      await page.goto(`/t/technikwelt/orders?lang=${lang}`);
      const menu = page.getByRole('navigation', { name: lang === 'de' ? 'Menü' : 'Menu' });
      if (isMobile) await menu.locator('.sidebar-toggle').click();
      await expect(menu.getByRole('link', { name: 'Shop' })).toHaveAttribute('target', '_blank');
      await expect(menu.getByRole('link', { name: 'Newsletter' })).not.toHaveAttribute('target', /.*/);
      await menu.getByRole('link', { name: 'E-Paper' }).click();
      await expect(page).toHaveURL(/\/t\/technikwelt\/E-Paper$/);
      const src = await page.locator('iframe.external-frame').getAttribute('src');
      expect(src).toMatch(/^https:\/\/epaper\.technikwelt\.example\/reader\?uid=.+/);
      expect(src).not.toContain('-suid-');
      await expect(
        page.getByRole('link', {
          name: lang === 'de' ? 'E-Paper in neuem Tab öffnen' : 'Open E-Paper in a new tab',
        }),
      ).toBeVisible();
    });
  }

  test('an unknown path says page not found on both tenants; stadtkurier has no external pages', async ({
    page,
  }) => {
    await page.goto('/t/technikwelt/kein-link?lang=en');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.goto('/t/stadtkurier/E-Paper');
    await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
    await expect(page.locator('iframe')).toHaveCount(0);
  });

  test('an anonymous visitor gets the embedded page without a user id', async ({ page }) => {
    await page.goto('/t/technikwelt/E-Paper');
    await expect(page.locator('iframe.external-frame')).toHaveAttribute(
      'src',
      'https://epaper.technikwelt.example/reader?uid=-suid-',
    );
  });
});
