// @vitest-environment jsdom
/**
 * The licence invitation's page (account-flows.md §5 "Accept licence"): the form starts with what
 * the order system knows of the person, and sends it as shown, also a salutation the tenant does not
 * let people choose themselves (a company's).
 */
import { afterEach, describe, expect, it } from 'vitest';
import AcceptLicenseScreen from '../../../engine/features/multi-user-licenses/AcceptLicenseScreen';
import { cleanUp, click, fakeApi, labelled, portalConfig, render, type } from '../../support/renderScreen';

const ACCEPT = '/subscriptions/S1/licenses/L1/accept';
const portal = portalConfig(['core', 'account', 'features/multi-user-licenses'], {
  features: ['multi-user-licenses'],
  salutations: {
    options: [
      { code: '0002', title: { 'de-DE': 'Herr', 'en-GB': 'Mr' }, isUserSelectable: true },
      { code: '0001', title: { 'de-DE': 'Frau', 'en-GB': 'Ms' }, isUserSelectable: true },
      {
        code: '0009',
        title: { 'de-DE': 'Firma', 'en-GB': 'Company' },
        isUserSelectable: false,
        isCompany: true,
      },
    ],
  },
  academicTitles: { options: [] },
  multiUserLicenses: { requireSalutation: true, requireRole: false, roles: [] },
});

const invitation = (salutationCode: string) => ({
  email: 'ada@campus.example',
  publicationName: 'TechnikWelt',
  orderNumber: '4711',
  businessPartner: { salutationCode, firstName: 'Ada', lastName1: 'Lovelace' },
});

async function openInvitation(salutationCode: string) {
  const api = fakeApi(
    { [`${ACCEPT}?token=tok`]: invitation(salutationCode) },
    { [ACCEPT]: { status: 'accepted', email: 'ada@campus.example' } },
  );
  const rendered = await render(<AcceptLicenseScreen />, {
    api,
    path: `${ACCEPT}?token=tok`,
    route: 'subscriptions/:id/licenses/:licenseId/accept',
    portal,
    loginSource: null,
  });
  return { ...rendered, api };
}

afterEach(cleanUp);

describe('accepting a licence invitation', () => {
  it("keeps the order system's salutation on offer and sends it, where people may not choose it", async () => {
    const { page, api } = await openInvitation('0009');
    const salutation = labelled(page, 'Title *') as HTMLSelectElement;
    expect(salutation.value).toBe('0009');
    expect(salutation.selectedOptions[0]?.textContent).toBe('Company');
    await type(labelled(page, 'Company or institution *') as HTMLInputElement, 'Analytical Engines Ltd');
    await click(page.querySelector('form button[type="submit"]'));
    const sent = api.calls.find((call) => call.method === 'POST');
    expect(sent?.body).toMatchObject({ businessPartner: { salutationCode: '0009', lastName1: 'Lovelace' } });
    expect(page.querySelector('[aria-invalid="true"]')).toBeNull();
  });

  it("asks for a salutation when the order system's is none the tenant knows", async () => {
    const { page, api } = await openInvitation('0077');
    const salutation = labelled(page, 'Title *') as HTMLSelectElement;
    expect(salutation.value).toBe('');
    await type(labelled(page, 'Company or institution *') as HTMLInputElement, 'Analytical Engines Ltd');
    await click(page.querySelector('form button[type="submit"]'));
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
    expect(salutation.getAttribute('aria-invalid')).toBe('true');
  });

  it('offers only the salutations people may choose when the order system knows none', async () => {
    const { page } = await openInvitation('');
    const salutation = labelled(page, 'Title *') as HTMLSelectElement;
    expect([...salutation.options].map((option) => option.value).filter(Boolean)).toEqual(['0002', '0001']);
  });
});
