/**
 * A third locale is JSON files plus one line of configuration, shown with a pseudo-locale
 * (en-XA: British English with every letter accented, tests/i18n/pseudoLocale.ts).
 *
 * - The line: the locale's entry in the locale list. In the product it is the locale enum of
 *   schemas/tenant.schema.json (every per-locale setting takes the locales listed there) with the
 *   compiler-checked LOCALES of engine/domain/locales.ts beside it; here LOCALES is mocked.
 * - The files: the engine's texts (a real locale adds an "en-XA" section to each feature's
 *   texts.json; here they come as the tenant's own texts of a copy of technikwelt, every feature on)
 *   and the server's (server/texts/en-XA/<area>.json; here generated into a temporary folder).
 *
 * The tenant is built as `portal build` writes it; neither the built page's text tables, nor its
 * screens (rendered in jsdom from that page), nor its mails, nor its invoice PDF show a text of
 * German or British English.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { populateGlobal } from 'vitest/environments';
import { writeTenant, type EngineOutput } from '../../cli/build/buildTenants';
import { loadValidTenants } from '../../cli/commands/loadValidTenants';
import type { PortalConfig } from '../../engine/domain/portalConfig';
import { authMail } from '../../server/mail/authMails';
import { changeMail, mailWord } from '../../server/account/changeMails';
import { cancellationMail } from '../../server/cancellation/cancellationMail';
import { contactMail } from '../../server/contact/contactMail';
import { invoicePdf } from '../../server/documents/documents';
import { licenseMail } from '../../server/multi-user-licenses/licenseMails';
import { offerAcceptedMail } from '../../server/offers/offerMails';
import { ssoMail, ssoReply } from '../../server/sso-profile-page/ssoProfileTexts';
import { readLocaleTexts, SERVER_TEXTS_DIR, serverTexts } from '../../server/texts/serverTexts';
import { pdfText } from '../server/documents/pdfText';
import { engineTexts, foundIn, PSEUDO_LOCALE, pseudo, pseudoTable, telltales } from './pseudoLocale';

vi.mock('../../engine/domain/locales', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../engine/domain/locales')>();
  // The one line a locale adds to the code.
  return { ...actual, LOCALES: [...actual.LOCALES, 'en-XA'] };
});

const XA = PSEUDO_LOCALE as never;
const ACCENTED_TEXT = /\[[^\]]*[åƀçđéƒĝĥîĵķļɱñöþǫŕšŧûṽŵẋýž]/;
const work = mkdtempSync(path.join(os.tmpdir(), 'portal-pseudo-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a tenant built with a pseudo-locale', () => {
  /** What gives German or British English away: every engine text of both, in pieces of two words or more. */
  const otherLanguages = telltales([
    ...Object.values(engineTexts('de-DE')),
    ...Object.values(engineTexts('en-GB')),
  ]);
  let config: PortalConfig;
  let dir: string;

  beforeAll(async () => {
    const [technikwelt] = await loadValidTenants(['technikwelt']);
    // The tenant's own words (announcement, FAQ, labels: every per-locale setting) get their en-XA
    // text too, as `portal validate` asks of a tenant that offers a locale (tenant/translationWarnings.ts).
    const tenant = {
      ...withPseudoWords(technikwelt),
      locales: [...technikwelt.locales, PSEUDO_LOCALE],
      defaultLocale: PSEUDO_LOCALE,
      texts: { ...technikwelt.texts, [PSEUDO_LOCALE]: pseudoTable(engineTexts('en-GB')) },
    } as unknown as typeof technikwelt; // en-XA is not in the schema's list: the mock above adds it
    await writeTenant(tenant, fakeEngine(), work);
    dir = path.join(work, tenant.id);
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    const json = /<script type="application\/json" id="portal-config">([\s\S]*?)<\/script>/.exec(html)![1];
    config = { ...(JSON.parse(json) as PortalConfig), basePath: '/' };
  });

  it('ships every engine text in the pseudo-locale and none in German or British English', () => {
    expect(config.tenant.defaultLocale).toBe(PSEUDO_LOCALE);
    const file = config.textFiles?.[XA] as string | undefined;
    expect(file).toMatch(/^assets\/texts\.en-XA\.\w+\.json$/);
    // What the page reads in en-XA: the shared text file with the tenant's own texts laid over it.
    const shown = {
      ...JSON.parse(readFileSync(path.join(dir, file!), 'utf8')),
      ...(config.texts as Record<string, Record<string, string>>)[PSEUDO_LOCALE],
    } as Record<string, string>;
    const english = engineTexts('en-GB');
    expect(Object.keys(shown).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(shown)) expect(text, key).toBe(pseudo(english[key]));
    expect(foundIn(Object.values(shown).join('\n'), otherLanguages)).toEqual([]);
  });

  it('shows its screens in the pseudo-locale only', async () => {
    const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/' });
    const { keys, originals } = populateGlobal(globalThis, dom.window, { bindFunctions: true });
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    // The page fetches the text file of the locale it shows, as a built page does (engine/core/i18n.ts).
    vi.stubGlobal('fetch', async (file: string) => new Response(readFileSync(path.join(dir, file), 'utf8')));
    try {
      const { renderScreens } = await import('./pseudoLocaleScreens');
      const screens = await renderScreens(structuredClone(config), PSEUDO_LOCALE);
      expect(Object.keys(screens).length).toBeGreaterThan(2);
      for (const [name, text] of Object.entries(screens)) {
        expect(text, name).toMatch(ACCENTED_TEXT);
        expect(foundIn(text, otherLanguages), name).toEqual([]);
      }
      // The check sees British English where it is: the same screens in en-GB are full of it.
      const english = await renderScreens(structuredClone(config), 'en-GB');
      for (const [name, text] of Object.entries(english))
        expect(foundIn(text, otherLanguages).length, name).toBeGreaterThan(0);
    } finally {
      vi.unstubAllGlobals();
      keys.forEach((key) => delete (globalThis as Record<string, unknown>)[key]);
      originals.forEach((value, key) => ((globalThis as Record<string | symbol, unknown>)[key] = value));
      dom.window.close();
    }
  });
});

describe('the server in a pseudo-locale', () => {
  const english = readLocaleTexts(path.join(SERVER_TEXTS_DIR, 'en-GB'));
  const otherLanguages = telltales(
    ['de-DE', 'en-GB'].flatMap((locale) =>
      Object.values(readLocaleTexts(path.join(SERVER_TEXTS_DIR, locale))).flatMap((table) =>
        Object.values(table),
      ),
    ),
  );

  beforeAll(() => {
    // server/texts/en-XA/<area>.json, as a translator would deliver it, read the way the server reads its folders.
    const folder = path.join(work, 'server-texts', PSEUDO_LOCALE);
    mkdirSync(folder, { recursive: true });
    for (const [area, table] of Object.entries(english))
      writeFileSync(path.join(folder, `${area}.json`), JSON.stringify(pseudoTable(table)));
    for (const [area, table] of Object.entries(readLocaleTexts(folder)))
      serverTexts.addResourceBundle(PSEUDO_LOCALE, area, table);
  });

  it('writes its mails in the pseudo-locale only', () => {
    const values = { tenant: 'Technikwelt', subscription: 'Technikwelt Pro', orderNumber: '4279710632' };
    const mails = {
      magicLink: authMail('magicLink', PSEUDO_LOCALE, {
        tenant: 'Technikwelt',
        link: 'https://x.example/l',
        minutes: 30,
      }),
      holiday: changeMail('holidaySet', XA, {
        ...values,
        service: mailWord(XA, 'break'),
        from: '1',
        to: '2',
      }),
      cancellation: cancellationMail(XA, {
        ...values,
        effectiveDate: '2026-12-31',
        issueNumber: '12',
        endOf: 'term',
        exceptional: true,
        revocable: true,
        dateStyle: 'issue_number_date',
      }),
      offer: offerAcceptedMail(XA, {
        ...values,
        offer: 'Pro 24',
        amount: 214.2,
        currency: 'EUR',
        billing: 'paid',
        change: { kind: 'extend', date: '2027-12-31' } as never,
      }),
      licence: licenseMail('invitation', XA, {
        ...values,
        name: 'Zoë',
        publication: 'Technikwelt',
        link: 'https://x',
      }),
      sso: ssoMail('accountDeleted', XA, values),
      ssoReply: { subject: '', text: ssoReply('emailChanged', XA, { email: 'z@x.example' }) },
      contact: contactMail({
        tenantName: 'Technikwelt',
        locale: PSEUDO_LOCALE,
        reference: 'K-1',
        activityName: 'Allgemein',
        missingOrderNumber: true,
        relatedTo: 'subscription',
        contactDetails: { firstName: 'Zoë', lastName: 'Ø', email: 'z@x.example' },
        optIn: false,
        message: '…',
      }),
    };
    for (const [name, mail] of Object.entries(mails)) {
      const text = `${mail.subject}\n${mail.text}`;
      expect(text, name).toMatch(ACCENTED_TEXT);
      expect(foundIn(text, otherLanguages), name).toEqual([]);
    }
  });

  it('prints its invoice in the pseudo-locale only', async () => {
    const pdf = await invoicePdf({
      tenant: {
        name: 'Technikwelt',
        defaultLocale: XA,
        contact: { fallbackEmail: 'service@technikwelt.example' },
        invoice: {
          publisher: {
            name: 'Technikwelt Medien GmbH',
            addressLines: ['Ring 1', '80331 München'],
            vatId: 'DE1',
          },
          vatRatePercent: 7,
        },
      },
      locale: XA,
      subscription: {
        displayName: 'Technikwelt Pro',
        publication: 'TW',
        publicationName: 'Technikwelt',
        orderNumber: '4279710632',
        billingFrequency: '03',
        validToOnSaleDate: null,
      },
      payment: {
        id: 'P-1',
        date: '2026-01-01',
        amount: 107,
        currency: 'EUR',
        invoiceStatusCode: 'A',
        invoiceNumber: '9000001234',
        externalDocumentNumber: 'RE2026-001234',
        documentId: 'DOC-1',
      },
      billedTo: {
        bpNumber: '1000000042',
        firstName: 'Zoë',
        lastName1: 'Ødegård',
        company1: null,
        street: 'Hauptstraße',
        streetNumber: '5',
        zipcode: '86150',
        city: 'Augsburg',
        countryCode: 'DE',
      },
    } as never);
    const { text } = await pdfText(pdf);
    expect(text).toContain(pseudo(english.documents.invoice));
    expect(foundIn(text, otherLanguages)).toEqual([]);
  });
});

/** Every per-locale text of a tenant (`{"de-DE": …, "en-GB": …}`) with its pseudo-locale text beside it. */
function withPseudoWords<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withPseudoWords) as T;
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, child]) => [key, withPseudoWords(child)]);
  const english = (value as Record<string, unknown>)['en-GB'];
  if (typeof english === 'string') entries.push([PSEUDO_LOCALE, pseudo(english)]);
  return Object.fromEntries(entries) as T;
}

/** The engine build as the tenant step sees it: one entry chunk (which screens it holds is not this test's concern). */
function fakeEngine(): EngineOutput {
  const engineDir = path.join(work, '.engine');
  mkdirSync(path.join(engineDir, 'assets'), { recursive: true });
  writeFileSync(path.join(engineDir, 'assets/index.js'), 'console.log("entry");');
  return {
    dir: engineDir,
    template:
      '<html lang="en-GB"><head><!--portal:head--></head><body><script type="module" src="./assets/index.js"></script></body></html>',
    sizes: new Map(),
    textFiles: new Map(),
    baseTexts: new Map(),
    manifest: { 'index.html': { file: 'assets/index.js', src: 'index.html', isEntry: true } },
  };
}
