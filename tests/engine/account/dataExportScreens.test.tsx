// @vitest-environment jsdom
/**
 * "Download my data" on the screen engine/domain/dataExport.ts names
 * (docs/subscribers.md "Download my data"): the addresses page of a tenant without account details shows the
 * section and asks the server for the export; a tenant with account details keeps it there, not on the
 * addresses page; a tenant nobody signs in to has none. Both languages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import BusinessPartnersScreen from '../../../engine/features/business-partners/BusinessPartnersScreen';
import { dataExportRoute, offersDataExport } from '../../../engine/domain/dataExport';
import { click, cleanUp, fakeApi, portalConfig, render, settle } from '../../support/renderScreen';

const FOLDERS = ['features/business-partners', 'account', 'ui'];
const api = () =>
  fakeApi(
    { '/business-partners': [], '/subscriptions': [] },
    { '/data-export': { status: 'preparing', message: 'ok' } },
  );

afterEach(cleanUp);

describe('the export on the addresses page', () => {
  it('is offered there when the tenant has no account details page, and asks the server', async () => {
    for (const [locale, heading, button] of [
      ['de-DE', 'Meine Daten herunterladen', 'Meine Daten anfordern'],
      ['en-GB', 'Download my data', 'Request my data'],
    ] as const) {
      const fake = api();
      const { page } = await render(<BusinessPartnersScreen />, {
        api: fake,
        path: '/business-partners',
        portal: portalConfig(FOLDERS, { features: ['address-change'] }),
        locale,
      });
      await settle();
      expect(page.querySelector('#data-export-title')?.textContent, locale).toBe(heading);
      const ask = [...page.querySelectorAll('button')].find((b) => b.textContent === button);
      await click(ask);
      await settle();
      expect(
        fake.calls.some((call) => call.method === 'POST' && call.path === '/data-export'),
        locale,
      ).toBe(true);
      cleanUp();
    }
  });

  it("names only what the tenant's features keep, as a list in the screen's language", async () => {
    const intro = async (features: string[], locale: 'de-DE' | 'en-GB') => {
      const { page } = await render(<BusinessPartnersScreen />, {
        api: api(),
        path: '/business-partners',
        portal: portalConfig(FOLDERS, { features }),
        locale,
      });
      await settle();
      const text = page.querySelector('.data-export p')?.textContent ?? page.textContent ?? '';
      cleanUp();
      return text;
    };
    const plain = await intro(['address-change'], 'en-GB');
    expect(plain).toContain(
      'account, customer records, subscriptions, orders, payments, invoices and the record of changes.',
    );
    expect(plain).not.toContain('licences');
    const full = await intro(
      ['address-change', 'opt-ins', 'multi-user-licenses', 'e-card', 'contact-form'],
      'de-DE',
    );
    expect(full).toContain(
      'Einwilligungen, Lizenzen, E-Cards, Kontaktnachrichten und das Änderungsprotokoll.',
    );
    expect(full).not.toContain('Kundenclub');
  });

  it('is not there when the account details page has it', async () => {
    const { page } = await render(<BusinessPartnersScreen />, {
      api: api(),
      path: '/business-partners',
      portal: portalConfig(FOLDERS, { features: ['sso-profile-page'] }),
    });
    await settle();
    expect(page.querySelector('#data-export-title')).toBeNull();
  });

  it('follows the one rule the server follows', () => {
    const login = { magicLink: true, password: false };
    expect(dataExportRoute({ features: ['sso-profile-page'] }).id).toBe('sso-profile');
    expect(dataExportRoute({ features: [] }).id).toBe('business-partners');
    expect(offersDataExport({ features: [], login })).toBe(true);
    expect(offersDataExport({ features: [], login: { magicLink: false, password: false } })).toBe(false);
    expect(offersDataExport({ features: ['kicker-auth'], login: { magicLink: false } })).toBe(true);
  });
});
