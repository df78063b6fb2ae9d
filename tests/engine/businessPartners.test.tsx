// @vitest-environment jsdom
/**
 * The addresses page (/business-partners, portal-core.md §2): the change-address button leads to the
 * subscription's addresses, which edit only the partners the account speaks for, so a gift's
 * recipient listed there keeps his own address and gets no such button.
 */
import { afterEach, describe, expect, it } from 'vitest';
import BusinessPartnersScreen from '../../engine/features/business-partners/BusinessPartnersScreen';
import { cleanUp, engineTexts, fakeApi, portalConfig, render, settle, type } from '../support/renderScreen';
import { makeSubscription } from '../support/subscriptionBuilder';

afterEach(cleanUp);

const FOLDERS = ['core', 'features/business-partners', 'account', 'ui'];
const en = engineTexts(FOLDERS)['en-GB'];
const gift = makeSubscription({ id: 'G-1', displayName: 'Gift for Max', roles: ['AG', 'RE'] });
const partner = (bpNumber: string, firstName: string, own: boolean, roles: string[]) => ({
  bpNumber,
  firstName,
  lastName1: 'Example',
  street: 'Weg',
  streetNumber: '1',
  zipcode: '10115',
  city: 'Berlin',
  countryCode: 'DE',
  own,
  subscriptions: [
    { subscriptionId: gift.id, orderNumber: gift.orderNumber, displayName: gift.displayName, roles },
  ],
});

describe('the addresses page', () => {
  it("offers to change the account's own partner's address, not the gift recipient's", async () => {
    const { page } = await render(<BusinessPartnersScreen />, {
      api: fakeApi({
        '/business-partners': [
          partner('001', 'Anna', true, ['AG', 'RE']),
          partner('002', 'Max', false, ['WE']),
        ],
        '/subscriptions': [gift],
      }),
      path: '/business-partners',
      portal: portalConfig(FOLDERS, { features: ['address-change'] }),
    });
    await settle();
    const card = (id: string) => page.querySelector(`[aria-labelledby="bp-${id}"]`)!;
    const buttons = (id: string) =>
      [...card(id).querySelectorAll('a')].filter(
        (a) => a.textContent === en['business-partners.changeAddress'],
      );
    expect(card('001').textContent).toContain('Anna');
    expect(buttons('001')).toHaveLength(1);
    expect(card('002').textContent).toContain('Max');
    expect(buttons('002')).toHaveLength(0);
  });

  it('finds a partner by the order number its entry shows', async () => {
    const other = makeSubscription({ id: 'O-1', orderNumber: '4999999999', displayName: 'Other paper' });
    const { page } = await render(<BusinessPartnersScreen />, {
      api: fakeApi({
        '/business-partners': [
          partner('001', 'Anna', true, ['AG']),
          {
            ...partner('004', 'Lena', true, ['AG']),
            subscriptions: [
              {
                subscriptionId: other.id,
                orderNumber: other.orderNumber,
                displayName: other.displayName,
                roles: ['AG'],
              },
            ],
          },
        ],
        '/subscriptions': [gift, other],
      }),
      path: '/business-partners',
      portal: portalConfig(FOLDERS, { features: ['address-change'] }),
    });
    await settle();
    await type(page.querySelector<HTMLInputElement>('#bp-search')!, '4999999');
    expect(page.querySelector('[aria-labelledby="bp-004"]')).not.toBeNull();
    expect(page.querySelector('[aria-labelledby="bp-001"]')).toBeNull();
  });

  it('shows an address kept as lines (address-lines feature) with all its lines, as the other screens do', async () => {
    const lined = {
      ...partner('003', 'Sam', true, ['AG']),
      street: null,
      streetNumber: null,
      addressLine1: '27 Castle Street',
      addressLine2: 'Flat 2',
      addressLine3: 'Rear entrance',
      zipcode: 'EH2 3DN',
      city: 'Edinburgh',
      countryCode: 'GB',
    };
    const { page } = await render(<BusinessPartnersScreen />, {
      api: fakeApi({ '/business-partners': [lined], '/subscriptions': [gift] }),
      path: '/business-partners',
      portal: portalConfig(FOLDERS, { features: ['address-lines'] }),
    });
    await settle();
    expect(page.querySelector('[aria-labelledby="bp-003"]')!.textContent).toContain(
      '27 Castle Street, Flat 2, Rear entrance, Edinburgh, EH2 3DN',
    );
  });
});
