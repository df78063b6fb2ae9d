// @vitest-environment jsdom
/**
 * The address edit page in jsdom with a fake API (account-flows.md §2 "Addresses", §4 "Address
 * change timing", §5 "Address form"): locked fields, stars, the timing and its warning, the
 * confirmation, what is sent, and the question on leaving with unsaved changes.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import { ApiError } from '../../../engine/domain/apiError';
import AddressChangeScreen from '../../../engine/features/address-change/AddressChangeScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import {
  byText,
  cleanUp,
  click,
  config,
  de,
  en,
  fakeApi,
  labelled,
  openDialog,
  polyfillDialogs,
  render,
  settleUntil,
  type,
} from './harness';
import { act } from 'react';

beforeAll(polyfillDialogs);
afterEach(() => {
  cleanUp();
  vi.restoreAllMocks();
});

const subscription = makeSubscription();
const S = `/subscriptions/${subscription.id}`;
const BP = '0012345678';
const route = 'subscriptions/:id/business-partners/:bpNumber';
const partner: SubscriptionPartner = {
  bpNumber: BP,
  roles: ['AG', 'WE'],
  address: {
    salutationCode: '0001',
    firstName: 'Anna',
    lastName1: 'Schmidt',
    company1: null,
    street: 'Lindenstraße',
    streetNumber: '12',
    zipcode: '10969',
    city: 'Berlin',
    countryCode: 'DE',
  },
  company2: null,
  jobTitle: null,
  department: null,
  emailAddress: 'anna@example.org',
  phoneNumber: '+49 30 1234',
  dateOfBirth: null,
  futureAddresses: [],
  editable: true,
  addressVersion: '0123456789abcdef',
  // Shipping today: an immediate change misses it.
  nextPhysicalIssue: { issueNumber: '48/2026', dateOfFirstShipping: '2000-01-01' },
};

async function editPage(
  post: Record<string, unknown> = {},
  locale: 'en-GB' | 'de-DE' = 'en-GB',
  shown: SubscriptionPartner = partner,
) {
  const api = fakeApi(
    {
      [S]: subscription,
      [`${S}/business-partners`]: [shown],
      [`${S}/supported-countries?role=WE`]: ['DE', 'AT'],
    },
    post,
  );
  const rendered = await render(<AddressChangeScreen />, {
    api,
    path: `${S}/business-partners/${BP}`,
    route,
    portal: config(),
    locale,
  });
  return { api, ...rendered };
}

describe('address edit page', () => {
  it('locks names and country with the pointer to the contact form, stars the required fields and warns that an immediate change misses the next issue', async () => {
    const { page } = await editPage();
    const lastName = labelled<HTMLInputElement>(page, en['account.address.lastName1']);
    expect(lastName.disabled).toBe(true);
    // The pointer stands under the locked names and companies, before the job title, which is editable.
    const namesHint = document.getElementById(lastName.getAttribute('aria-describedby')!)!;
    expect(namesHint.textContent).toContain(en['account.address.locked']);
    const jobTitle = labelled<HTMLInputElement>(page, en['account.address.jobTitle']);
    expect(jobTitle.disabled).toBe(false);
    // The hint stands after the locked second company line and before the job title.
    const company2 = labelled<HTMLInputElement>(page, en['account.address.company2']);
    expect(company2.disabled).toBe(true);
    expect(company2.compareDocumentPosition(namesHint)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(namesHint.compareDocumentPosition(jobTitle)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    const country = labelled<HTMLSelectElement>(page, `${en['account.address.countryCode']} *`);
    expect(country.disabled).toBe(true);
    expect(document.getElementById(country.getAttribute('aria-describedby')!)!.textContent).toContain(
      en['account.address.locked'],
    );
    // E-mail may change here and is required because one is on record.
    expect(labelled<HTMLInputElement>(page, `${en['account.address.emailAddress']} *`).disabled).toBe(false);
    expect(labelled<HTMLInputElement>(page, en['account.address.phoneNumber']).disabled).toBe(true);
    expect(labelled<HTMLInputElement>(page, `${en['account.address.street']} *`).value).toBe('Lindenstraße');
    expect(page.textContent).toContain(
      en['address-change.nextIssueWarning'].replace('{{issueNumber}}', '48/2026'),
    );

    await click(page.querySelector<HTMLInputElement>('input[name="address-timing"][value="date"]'));
    expect(page.textContent).not.toContain(
      en['address-change.nextIssueWarning'].replace('{{issueNumber}}', '48/2026'),
    );
  });

  it('refuses a missing date for a timed change, then confirms and sends the address with its date', async () => {
    const { api, page, router } = await editPage({ [`${S}/business-partners/${BP}`]: partner });
    await type(labelled<HTMLInputElement>(page, `${en['account.address.street']} *`), 'Oranienstraße');
    // §5 "job title, company, department max 35": the partner's organisation beside the address.
    await type(labelled<HTMLInputElement>(page, en['account.address.jobTitle']), 'x'.repeat(36));
    await type(labelled<HTMLInputElement>(page, en['account.address.department']), 'Lokales');
    const jobTitle = labelled<HTMLInputElement>(page, en['account.address.jobTitle']);
    const tooLongText = en['shell.tooLong'].replace('{{max}}', '35').replace('{{count}}', '36');
    const said = () => document.getElementById(jobTitle.getAttribute('aria-describedby')!.split(' ')[0]);
    // Said as it is typed, before any submit, as every field with a limit says it: how many there are now.
    expect(jobTitle.getAttribute('aria-invalid')).toBe('true');
    expect(said()!.textContent).toBe(tooLongText);
    await click(byText(page, 'button', en['address-change.save']));
    expect(jobTitle.getAttribute('aria-invalid')).toBe('true');
    expect(said()!.textContent).toBe(tooLongText);
    expect(openDialog(page)).toBeUndefined();
    await type(labelled<HTMLInputElement>(page, en['account.address.jobTitle']), 'Redakteurin');
    await click(page.querySelector<HTMLInputElement>('input[name="address-timing"][value="date"]'));
    await click(byText(page, 'button', en['address-change.save']));
    const validFrom = labelled<HTMLInputElement>(page, `${en['address-change.timing.validFrom']} *`);
    expect(validFrom.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(validFrom);
    expect(openDialog(page)).toBeUndefined();

    await type(validFrom, '2099-01-15');
    await click(byText(page, 'button', en['address-change.save']));
    const confirm = openDialog(page)!;
    expect(confirm.textContent).toContain('15 Jan 2099');
    await click(byText(confirm, 'button', en['address-change.confirmYes']));

    expect(api.calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: `${S}/business-partners/${BP}`,
      body: {
        salutationCode: '0001',
        firstName: 'Anna',
        lastName1: 'Schmidt',
        company1: null,
        company2: null,
        jobTitle: 'Redakteurin',
        department: 'Lokales',
        addressLine1: null,
        addressLine2: null,
        addressLine3: null,
        street: 'Oranienstraße',
        streetNumber: '12',
        streetNumberSuffix: null,
        zipcode: '10969',
        city: 'Berlin',
        countryCode: 'DE',
        emailAddress: 'anna@example.org',
        phoneNumber: '+49 30 1234',
        dateOfBirth: null,
        validFrom: '2099-01-15',
        basedOn: partner.addressVersion,
      },
    });
    // Saved: on to the addresses without being asked about unsaved changes.
    expect(router.state.location.pathname).toBe(`${S}/addresses`);
  });

  it('keeps what was typed on the details another window saved meanwhile, says so, and saves on them', async () => {
    for (const locale of ['en-GB', 'de-DE'] as const) {
      const texts = locale === 'en-GB' ? en : de;
      const meanwhile: SubscriptionPartner = {
        ...partner,
        address: { ...partner.address, streetNumber: '9' },
        addressVersion: 'fedcba9876543210',
      };
      let shown = partner;
      let answers = 0;
      const api = fakeApi(
        {
          [S]: subscription,
          [`${S}/business-partners`]: () => [shown],
          [`${S}/supported-countries?role=WE`]: ['DE', 'AT'],
        },
        {
          [`${S}/business-partners/${BP}`]: () => {
            answers += 1;
            if (answers > 1) return meanwhile;
            shown = meanwhile;
            return new ApiError(409, 'address_changed_meanwhile', 'These details were changed meanwhile.');
          },
        },
      );
      const { page } = await render(<AddressChangeScreen />, {
        api,
        path: `${S}/business-partners/${BP}`,
        route,
        portal: config(),
        locale,
      });
      const city = () => labelled<HTMLInputElement>(page, `${texts['account.address.city']} *`);
      await type(city(), 'Potsdam');
      await click(byText(page, 'button', texts['address-change.save']));
      await click(byText(openDialog(page)!, 'button', texts['address-change.confirmYes']));
      // Said where the person is: the notice takes the focus (a phone shows it, not the fields below).
      expect(document.activeElement?.textContent).toBe(texts['address-change.changedMeanwhile']);
      expect(labelled<HTMLInputElement>(page, `${texts['account.address.streetNumber']} *`).value).toBe('9');
      expect(city().value).toBe('Potsdam');
      await click(byText(page, 'button', texts['address-change.save']));
      await click(byText(openDialog(page)!, 'button', texts['address-change.confirmYes']));
      const posts = api.calls.filter((call) => call.method === 'POST').map((call) => call.body);
      expect(posts).toEqual([
        expect.objectContaining({ streetNumber: '12', city: 'Potsdam', basedOn: partner.addressVersion }),
        expect.objectContaining({ streetNumber: '9', city: 'Potsdam', basedOn: 'fedcba9876543210' }),
      ]);
      cleanUp();
    }
  });

  it('says so when a load in another language brings details changed under what the person typed', async () => {
    let shown = partner;
    const api = fakeApi(
      {
        [S]: subscription,
        [`${S}/business-partners`]: () => [shown],
        [`${S}/supported-countries?role=WE`]: ['DE', 'AT'],
      },
      {},
    );
    const { page, i18n } = await render(<AddressChangeScreen />, {
      api,
      path: `${S}/business-partners/${BP}`,
      route,
      portal: config(),
      locale: 'en-GB',
    });
    await type(labelled<HTMLInputElement>(page, `${en['account.address.city']} *`), 'Potsdam');
    shown = {
      ...partner,
      address: { ...partner.address, streetNumber: '9' },
      addressVersion: 'fedcba9876543210',
    };
    await act(async () => i18n.changeLanguage('de-DE'));
    await settleUntil(() => page.textContent!.includes(de['address-change.changedMeanwhile']));
    expect(labelled<HTMLInputElement>(page, `${de['account.address.streetNumber']} *`).value).toBe('9');
    expect(labelled<HTMLInputElement>(page, `${de['account.address.city']} *`).value).toBe('Potsdam');
  });

  it('saves a change beside values on record longer than the form allows, which it leaves as they are', async () => {
    const onRecord: SubscriptionPartner = {
      ...partner,
      address: { ...partner.address, lastName1: 'Schmidt-Lüdenscheidt-Wittgenstein-Sayn' },
      emailAddress: 'subscriptions.department@harbourside.example',
    };
    const { api, page } = await editPage({ [`${S}/business-partners/${BP}`]: onRecord }, 'en-GB', onRecord);
    // The record's own address is not marked as too long: nobody typed it.
    const kept = labelled<HTMLInputElement>(page, `${en['account.address.emailAddress']} *`);
    expect(kept.getAttribute('aria-invalid')).not.toBe('true');
    expect(page.textContent).not.toMatch(/at most 35 characters/);
    await type(labelled<HTMLInputElement>(page, `${en['account.address.city']} *`), 'Potsdam');
    await click(byText(page, 'button', en['address-change.save']));
    await click(byText(openDialog(page)!, 'button', en['address-change.confirmYes']));
    expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      lastName1: onRecord.address.lastName1,
      emailAddress: onRecord.emailAddress,
      city: 'Potsdam',
    });
    // What the person types is judged: the e-mail address made longer still is refused at its field.
    const again = await editPage({}, 'en-GB', onRecord);
    const email = labelled<HTMLInputElement>(again.page, `${en['account.address.emailAddress']} *`);
    await type(email, `x${onRecord.emailAddress}`);
    await click(byText(again.page, 'button', en['address-change.save']));
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });

  it('gives the heading the focus the shell parked on <main> while the screen was loading', async () => {
    let loaded!: (value: unknown) => void;
    const api = fakeApi({
      [S]: () => new Promise((resolve) => (loaded = resolve)),
      [`${S}/business-partners`]: [partner],
      [`${S}/supported-countries?role=WE`]: ['DE', 'AT'],
    });
    const { page } = await render(
      <main tabIndex={-1}>
        <AddressChangeScreen />
      </main>,
      { api, path: `${S}/business-partners/${BP}`, route, portal: config() },
    );
    const main = page.querySelector<HTMLElement>('main')!;
    main.focus();
    expect(page.querySelector('h1')).toBeNull();
    await act(async () => loaded(subscription));
    await settleUntil(() => page.querySelector('h1') !== null);
    expect(document.activeElement).toBe(page.querySelector('h1'));
  });

  it("shows the server's refusal at the field", async () => {
    const refusal = new ApiError(400, 'validation_failed', 'invalid', { fields: { zipcode: 'invalid' } });
    const { page } = await editPage({ [`${S}/business-partners/${BP}`]: refusal });
    await type(labelled<HTMLInputElement>(page, `${en['account.address.zipcode']} *`), '10115');
    await click(byText(page, 'button', en['address-change.save']));
    await click(byText(openDialog(page)!, 'button', en['address-change.confirmYes']));
    expect(
      labelled<HTMLInputElement>(page, `${en['account.address.zipcode']} *`).getAttribute('aria-invalid'),
    ).toBe('true');
    // Germany has no form of its own in the portal (§9: length only): the general message.
    expect(page.textContent).toContain(en['account.address.error.invalidPostcode']);
  });

  it('refuses a postcode shorter than four characters before asking the server, and keeps it', async () => {
    const calls: unknown[] = [];
    const { page } = await editPage({
      [`${S}/business-partners/${BP}`]: (body: unknown) => (calls.push(body), {}),
    });
    const zip = labelled<HTMLInputElement>(page, `${en['account.address.zipcode']} *`);
    await type(zip, '109');
    await click(byText(page, 'button', en['address-change.save']));
    expect(zip.getAttribute('aria-invalid')).toBe('true');
    expect(zip.value).toBe('109');
    expect(calls).toEqual([]);
  });

  it('asks before leaving with unsaved changes (German: "Ungespeicherte Änderungen verwerfen?")', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { page, router } = await editPage({}, 'de-DE');
    await type(labelled<HTMLInputElement>(page, `${de['account.address.city']} *`), 'Potsdam');
    await click(byText(page, 'a', 'Elsewhere'));
    expect(confirm).toHaveBeenCalledWith('Ungespeicherte Änderungen verwerfen?');
    expect(router.state.location.pathname).toBe(`${S}/business-partners/${BP}`);

    confirm.mockReturnValue(true);
    await click(byText(page, 'a', 'Elsewhere'));
    expect(router.state.location.pathname).toBe('/orders');
  });
});
