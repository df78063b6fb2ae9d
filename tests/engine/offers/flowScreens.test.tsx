// @vitest-environment jsdom
/**
 * The cancellation, renewal, bulk renewal and upgrade screens rendered in jsdom with a fake API
 * (account-flows.md §2, §4, §5, §8): what each screen shows and sends.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CancellationInfos, Recommendation } from '../../../schemas/generated/offers';
import type { LoginSource } from '../../../engine/core/authState';
import type { PortalConfig } from '../../../engine/domain/portalConfig';
import CancellationScreen from '../../../engine/features/cancellation/CancellationScreen';
import CancellationEntryScreen from '../../../engine/features/cancellation/CancellationEntryScreen';
import RenewalScreen from '../../../engine/features/renewal/RenewalScreen';
import RenewalEntryScreen from '../../../engine/features/renewal/RenewalEntryScreen';
import BulkRenewalScreen from '../../../engine/features/renewal/BulkRenewalScreen';
import UpgradeScreen from '../../../engine/features/upgrade/UpgradeScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import {
  byText,
  choose,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  labelled,
  polyfillDialogs,
  portalConfig,
  render as renderScreen,
  settle,
  settleUntil,
  type,
  type FakeApi,
} from '../../support/renderScreen';
import { act, type ReactNode } from 'react';
import { ApiError } from '../../../engine/domain/apiError';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const FLOW_TEXTS = ['core', 'account', 'features/cancellation', 'features/renewal', 'features/upgrade'];
const en = engineTexts(FLOW_TEXTS)['en-GB'];
const de = engineTexts(FLOW_TEXTS)['de-DE'];

function config(tenant: Record<string, unknown> = {}): PortalConfig {
  return portalConfig(FLOW_TEXTS, {
    features: ['cancellation', 'renewal', 'upgrade', 'contact-form'],
    cancellation: {
      dateStyle: 'issue_number_date',
      requireConfirmation: true,
      feedbackForm: true,
      showRetentionOffers: true,
      showHolidayBreakLink: false,
      recommendationCategory: 'CANCEL',
      revocationContactActivity: 'WIDERRUF',
    },
    renewal: { forceWithAutoRenewal: false, bulkRenewal: true, recommendationCategory: 'VERL' },
    upgrade: { recommendationCategory: 'UPGRD', upgradeTimes: ['NEXT_CYCLE'] },
    ...tenant,
  });
}

/** The screen at `path`, mounted at `route`, with this suite's tenant unless the test brings its own. */
async function render(
  element: ReactNode,
  options: {
    api: FakeApi;
    path: string;
    route: string;
    portal?: PortalConfig;
    loginSource?: LoginSource | null;
  },
) {
  const { page } = await renderScreen(element, { ...options, portal: options.portal ?? config() });
  return page;
}

const subscription = makeSubscription({
  id: 'SKZ4123456789',
  orderNumber: '4123456789',
  displayName: 'Stadtkurier – Print',
});
const S = '/subscriptions/SKZ4123456789';

function offer(id: string, extra: Partial<Recommendation> = {}): Recommendation {
  return {
    id,
    recommendationId: id,
    description: `Offer ${id}`,
    pictureUrl: null,
    openInNewTab: false,
    article: { articleText: `Article ${id}`, offerType: 'RN', price: 99, currencyKey: 'EUR' },
    paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }],
    ...extra,
  };
}

const reasons = [
  { cancelReason: 'PREIS', longDescription: 'Too expensive' },
  { cancelReason: 'ZEIT', longDescription: 'No time to read' },
];
const infos = (overrides: Partial<CancellationInfos> = {}): CancellationInfos => ({
  cancellable: true,
  issues: [
    { issueNumber: '2026/04', dateOfFirstSale: '2026-04-02' },
    // The term's last issue, which the select names so.
    { issueNumber: '2026/05', dateOfFirstSale: '2026-05-07', endOf: 'term' },
  ],
  recommendations: [],
  ...overrides,
});

describe('cancellation page (account-flows.md §2, §4)', () => {
  it('preselects the default reason and first date, confirms with the date and shows the success dialog with print and revocation link', async () => {
    const api = fakeApi(
      {
        [S]: subscription,
        [`${S}/cancellation-reasons`]: reasons,
        [`${S}/cancellation-infos?cancellationReason=PREIS`]: infos(),
      },
      {
        [`${S}/cancel`]: {
          type: 'regular',
          effectiveDate: '2026-05-07',
          issueNumber: '2026/05',
          endOf: 'term',
        },
      },
    );
    const portal = config({
      cancellation: { ...config().tenant.cancellation, defaultCancelReason: 'PREIS' },
    });
    const page = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });

    expect(labelled<HTMLSelectElement>(page, `${en['cancellation.reason']} *`).value).toBe('PREIS');
    const date = labelled<HTMLSelectElement>(page, `${en['cancellation.date']} *`);
    expect(date.selectedOptions[0].textContent).toBe('Issue 2026/04 (2 Apr 2026)');
    await choose(date, '1');
    await type(labelled<HTMLTextAreaElement>(page, en['cancellation.feedback']), 'Thanks for the years');

    await click(byText(page, 'button', en['cancellation.submit']));
    const confirm = page.querySelector('dialog[open]')!;
    expect(date.selectedOptions[0].textContent).toBe('Issue 2026/05 (7 May 2026) – end of the term');
    expect(confirm.textContent).toContain('Issue 2026/05 (7 May 2026) – end of the term');
    await click(byText(confirm, 'button', en['cancellation.confirmYes']));

    expect(api.calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: `${S}/cancel`,
      body: {
        reason: 'PREIS',
        issue: { issueNumber: '2026/05', dateOfFirstSale: '2026-05-07', endOf: 'term' },
        feedback: 'Thanks for the years',
      },
    });
    const success = page.querySelector('dialog[open]')!;
    expect(success.querySelector('h2')!.textContent).toBe(en['cancellation.successTitle']);
    // The date as the select and the confirmation named it.
    expect(success.textContent).toContain('Issue 2026/05 (7 May 2026) – end of the term');
    expect(byText(success, 'button', en['cancellation.print'])).toBeDefined();
    expect(byText(success, 'a', en['cancellation.revoke'])!.getAttribute('href')).toBe(
      '/contact?subscriptionId=SKZ4123456789&activity=WIDERRUF',
    );
  });

  it('fixes the date to the earliest possible one and asks for a reason in words when not cancellable regularly', async () => {
    const api = fakeApi(
      {
        [S]: subscription,
        [`${S}/cancellation-reasons`]: reasons,
        [`${S}/cancellation-infos?cancellationReason=ZEIT`]: infos({
          cancellable: false,
          issues: [{ issueNumber: null, dateOfFirstSale: '2026-03-31' }],
        }),
      },
      { [`${S}/cancel`]: { type: 'exceptional', effectiveDate: '2026-03-31', issueNumber: null } },
    );
    const portal = config({
      cancellation: { ...config().tenant.cancellation, requireConfirmation: true, feedbackForm: false },
    });
    const page = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });
    await choose(labelled<HTMLSelectElement>(page, `${en['cancellation.reason']} *`), 'ZEIT');

    expect(page.textContent).toContain(en['cancellation.exceptionalHint']);
    const date = labelled<HTMLSelectElement>(page, en['cancellation.date']);
    expect(date.disabled).toBe(true);
    // The earliest possible date is named by its day before it is confirmed (§2 "with date text"):
    // the locked field shows the day alone, beside its hint, so it fits a phone's width.
    expect(date.selectedOptions[0].textContent).toBe('31 Mar 2026');
    expect(page.textContent).toContain(en['cancellation.dateFixed']);
    expect(page.textContent).not.toContain(en['cancellation.feedback']);

    await click(byText(page, 'button', en['cancellation.submit']));
    expect(page.textContent).toContain(en['cancellation.required.reasonText']);
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);

    await type(labelled<HTMLTextAreaElement>(page, `${en['cancellation.reasonText']} *`), 'Moving abroad');
    await click(byText(page, 'button', en['cancellation.submit']));
    expect(page.textContent).toContain(
      `Do you really want to request an extraordinary termination of your subscription ${subscription.displayName} at the earliest possible date, 31 Mar 2026?`,
    );
    await click(byText(page, 'button', en['cancellation.confirmYes']));
    expect(api.calls.find((call) => call.method === 'POST')!.body).toEqual({
      reason: 'ZEIT',
      issue: { issueNumber: null, dateOfFirstSale: '2026-03-31' },
      reasonText: 'Moving abroad',
    });
    expect(page.textContent).toContain(`(order number ${subscription.orderNumber}) from 31 Mar 2026`);
  });

  it('while a renewal runs, offers only the renewed term’s end and says why', async () => {
    const api = fakeApi({
      [S]: subscription,
      [`${S}/cancellation-reasons`]: reasons,
      [`${S}/cancellation-infos?cancellationReason=PREIS`]: infos({
        issues: [{ issueNumber: null, dateOfFirstSale: '2028-01-05' }],
        renewedUntil: '2028-01-05',
      }),
    });
    const portal = config({
      cancellation: { ...config().tenant.cancellation, defaultCancelReason: 'PREIS' },
    });
    const page = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });
    const date = labelled<HTMLSelectElement>(page, `${en['cancellation.date']} *`);
    // A date without an issue number is the earliest possible (§3), named by its day.
    expect([...date.options].map((option) => option.textContent)).toEqual([
      'At the earliest possible date, 5 Jan 2028',
    ]);
    expect(page.textContent).toContain(
      'You have renewed this subscription until 5 Jan 2028. A cancellation takes effect at the end of the renewed term, not earlier.',
    );
  });

  it('shows retention offers instead of the confirm button; rejecting shows the form, and back again', async () => {
    const api = fakeApi({
      [S]: subscription,
      [`${S}/cancellation-reasons`]: reasons,
      [`${S}/cancellation-infos?cancellationReason=PREIS`]: infos({
        recommendations: [offer('R1'), offer('R2')],
      }),
    });
    const portal = config({
      cancellation: { ...config().tenant.cancellation, defaultCancelReason: 'PREIS' },
    });
    const page = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });

    expect(byText(page, 'button', en['cancellation.offers.take'])).toBeDefined();
    expect(byText(page, 'button', en['cancellation.submit'])).toBeUndefined();
    expect(page.querySelectorAll<HTMLInputElement>('input[name="retention-offer"]')[0].checked).toBe(true);
    await click(byText(page, 'button', en['cancellation.offers.reject']));
    expect(byText(page, 'button', en['cancellation.submit'])).toBeDefined();
    await click(byText(page, 'button', en['cancellation.offers.show']));
    expect(byText(page, 'button', en['cancellation.offers.take'])).toBeDefined();
  });

  it('offers the pause link beside the retention offers as beside the cancel form', async () => {
    const api = fakeApi({
      [S]: subscription,
      [`${S}/cancellation-reasons`]: reasons,
      [`${S}/cancellation-infos?cancellationReason=PREIS`]: infos({ recommendations: [offer('R1')] }),
    });
    const portal = config({
      features: ['cancellation', 'renewal', 'upgrade', 'contact-form', 'holiday-break'],
      cancellation: {
        ...config().tenant.cancellation,
        defaultCancelReason: 'PREIS',
        showHolidayBreakLink: true,
      },
    });
    const page = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });
    const pauseLink = () => byText(page, 'a', en['cancellation.pauseLink']);
    expect(byText(page, 'button', en['cancellation.offers.take'])).toBeDefined();
    expect(pauseLink()?.getAttribute('href')).toBe(`${S}/holiday-break`);
    await click(byText(page, 'button', en['cancellation.offers.reject']));
    expect(byText(page, 'button', en['cancellation.submit'])).toBeDefined();
    expect(pauseLink()?.getAttribute('href')).toBe(`${S}/holiday-break`);
  });

  it('says a retention offer’s payment is still open, and offers the offers again once it is given up', async () => {
    // The page was loaded again while the payment's window stayed open: its offer is not offered.
    let abandoned = false;
    const api = fakeApi(
      {
        [S]: subscription,
        [`${S}/cancellation-reasons`]: reasons,
        [`${S}/cancellation-infos?cancellationReason=PREIS`]: () =>
          infos({ recommendations: abandoned ? [offer('R1')] : [] }),
        [`${S}/pending-payments`]: () =>
          abandoned
            ? []
            : [
                {
                  id: 'pay-1',
                  subscriptionId: subscription.id,
                  amount: 9,
                  currency: 'EUR',
                  method: 'CREDIT_CARD',
                  createdAt: '2026-11-29T17:30:00.000Z',
                  orderNumbers: [subscription.orderNumber],
                },
              ],
      },
      {
        [`${S}/pending-payments/pay-1/abandon`]: () => {
          abandoned = true;
          return { status: 'canceled' };
        },
      },
    );
    const portal = config({
      cancellation: { ...config().tenant.cancellation, defaultCancelReason: 'PREIS' },
    });
    const page = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });
    expect(page.textContent).toContain(en['account.flow.openPayment'].split('{{amount}}')[0]);
    expect(byText(page, 'button', en['cancellation.offers.take'])).toBeUndefined();
    await click(byText(page, 'button', en['account.flow.giveUpPayment']));
    expect(page.textContent).not.toContain(en['account.flow.giveUpPayment']);
    expect(byText(page, 'button', en['cancellation.offers.take'])).toBeDefined();
  });

  it('notes the subscription already cancelled when a retention offer is taken after a cancellation in another tab (409 already_cancelled)', async () => {
    let cancelled = false;
    const api = fakeApi(
      {
        [S]: () => (cancelled ? { ...subscription, orderStatus: 'AK' } : subscription),
        [`${S}/cancellation-reasons`]: reasons,
        [`${S}/cancellation-infos?cancellationReason=PREIS`]: infos({ recommendations: [offer('R1')] }),
      },
      {
        [`${S}/recommendations/R1/accept?source=cancellation&category=CANCEL&cancelReason=PREIS`]: () => {
          cancelled = true;
          throw new ApiError(409, 'already_cancelled', 'This subscription is already cancelled.');
        },
      },
    );
    const portal = config({
      cancellation: { ...config().tenant.cancellation, defaultCancelReason: 'PREIS' },
    });
    const page = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });
    await click(byText(page, 'button', en['cancellation.offers.take']));
    await click(byText(page, 'button', en['cancellation.offers.confirmYes']));
    expect(page.textContent).toContain(en['cancellation.alreadyCancelled']);
    expect(page.textContent).not.toContain(en['shell.genericError']);
    expect(byText(page, 'button', en['cancellation.offers.take'])).toBeUndefined();
  });

  it('refuses an externally managed subscription naming its order number, and notes one already cancelled', async () => {
    const managed = { ...subscription, salesDocumentType: 'WBZA' };
    let page = await render(<CancellationScreen />, {
      api: fakeApi({ [S]: managed }),
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
    });
    expect(page.textContent).toContain('subscription 4123456789 is managed outside this portal');
    cleanUp();

    page = await render(<CancellationScreen />, {
      api: fakeApi({ [S]: { ...subscription, orderStatus: 'AK' } }),
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
    });
    expect(page.textContent).toContain(en['cancellation.alreadyCancelled']);
  });

  it('says cancellation is not possible when there are no reasons, with the way to customer service', async () => {
    const page = await render(<CancellationScreen />, {
      api: fakeApi({ [S]: subscription, [`${S}/cancellation-reasons`]: [] }),
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
    });
    expect(page.textContent).toContain(en['cancellation.notPossible']);
    expect(page.querySelector('a[href="mailto:help@acme.example"]')).not.toBeNull();
    expect(page.querySelector('a[href="tel:+4930123"]')).not.toBeNull();
  });
});

describe('anonymous cancellation check (§2, §4)', () => {
  it('locks the fields and says where the link went', async () => {
    const api = fakeApi(
      {},
      {
        '/login/cancellation': new ApiError(400, 'confirm_email', 'sent', {
          status: 'confirm_email',
          maskedEmail: 'a***@example.com',
        }),
      },
    );
    const page = await render(<CancellationEntryScreen />, {
      api,
      path: '/cancellation',
      route: 'cancellation',
      loginSource: null,
    });
    await type(labelled<HTMLInputElement>(page, `${en['account.entry.email']} *`), 'anna@example.com');
    await type(labelled<HTMLInputElement>(page, `${en['account.entry.orderNumber']} *`), '4123456789');
    await type(labelled<HTMLInputElement>(page, `${en['account.entry.zipcode']} *`), '10969');
    await click(byText(page, 'button', en['cancellation.check']));

    expect(api.calls[0]).toEqual({
      method: 'POST',
      path: '/login/cancellation',
      body: { email: 'anna@example.com', orderNumber: '4123456789', zipcode: '10969', locale: 'en-GB' },
    });
    expect(page.textContent).toContain('We have sent a link to a***@example.com');
    expect(labelled<HTMLInputElement>(page, `${en['account.entry.email']} *`).readOnly).toBe(true);

    // "Enter different details" unlocks the fields and sends nothing (no second link).
    await click(byText(page, 'button', en['account.entry.changeDetails']));
    expect(api.calls).toHaveLength(1);
    expect(labelled<HTMLInputElement>(page, `${en['account.entry.email']} *`).readOnly).toBe(false);
    expect(page.textContent).not.toContain('We have sent a link to a***@example.com');
  });

  it('words its field errors in the language shown, also after a switch', async () => {
    const { page, i18n } = await renderScreen(<CancellationEntryScreen />, {
      api: fakeApi(),
      path: '/cancellation',
      route: 'cancellation',
      loginSource: null,
      portal: config(),
    });
    await click(byText(page, 'button', en['cancellation.check']));
    expect(page.textContent).toContain(en['account.entry.required']);
    await act(async () => i18n.changeLanguage('de-DE'));
    await settle();
    expect(page.textContent).toContain(de['account.entry.required']);
    expect(page.textContent).not.toContain(en['account.entry.required']);
  });

  it('drops the last answer when the details are checked again', async () => {
    const api = fakeApi(
      {},
      { '/login/cancellation': new ApiError(404, 'not_found', 'no', { status: 'not_found' }) },
    );
    const page = await render(<CancellationEntryScreen />, {
      api,
      path: '/cancellation?email=anna@example.com&orderNumber=4123456789&zipCode=10969',
      route: 'cancellation',
      loginSource: null,
    });
    await click(byText(page, 'button', en['cancellation.check']));
    const answer = page.querySelector('[role="alert"]')?.textContent ?? '';
    expect(answer).not.toBe('');
    const orderNumber = labelled<HTMLInputElement>(page, `${en['account.entry.orderNumber']} *`);
    await type(orderNumber, '12345');
    await click(byText(page, 'button', en['cancellation.check']));
    expect(page.textContent).toContain(en['account.entry.invalidOrderNumber']);
    expect(page.textContent).not.toContain(answer);
    expect(api.calls).toHaveLength(1);
  });

  it('names the order number of an externally managed subscription', async () => {
    const api = fakeApi(
      {},
      { '/login/cancellation': new ApiError(403, 'externally_managed', 'no', { orderNumber: '4123456789' }) },
    );
    const page = await render(<CancellationEntryScreen />, {
      api,
      path: '/cancellation?email=anna@example.com&orderNumber=4123456789&zipCode=10969',
      route: 'cancellation',
      loginSource: null,
    });
    await click(byText(page, 'button', en['cancellation.check']));
    expect(page.textContent).toContain('Subscription 4123456789 is not managed through this portal');
  });
});

describe('renewal and upgrade pages (§2 "Renewal and upgrade screens")', () => {
  it('renewal: nothing chosen at first; accepting an offer applied at once shows the success dialog', async () => {
    const api = fakeApi(
      {
        [S]: { ...subscription, isRenewal: true },
        [`${S}/recommendations?source=renewal&category=VERL`]: [
          offer('R1'),
          offer('R2', {
            article: { articleText: 'Bundle', offerType: 'BD', price: 150, currencyKey: 'EUR' },
          }),
        ],
      },
      { [`${S}/recommendations/R2/accept?source=renewal&category=VERL`]: { url: null, status: 'applied' } },
    );
    const page = await render(<RenewalScreen />, {
      api,
      path: `${S}/renewal`,
      route: 'subscriptions/:id/renewal',
    });
    const submit = byText(page, 'button', en['renewal.submit']) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(page.textContent).toContain(en['account.offers.bundle']);
    expect(page.textContent).toContain('€150.00');

    await act(async () => page.querySelectorAll<HTMLInputElement>('input[name="renewal-offer"]')[1].click());
    await settle();
    expect(submit.disabled).toBe(false);
    await click(submit);
    expect(page.querySelector('dialog[open] h2')!.textContent).toBe(en['renewal.successTitle']);
  });

  it('renewal of a cancelled subscription says first that the cancellation will no longer apply, then that it does not', async () => {
    const api = fakeApi(
      {
        [S]: { ...subscription, isRenewal: true, orderStatus: 'AK' },
        [`${S}/recommendations?source=renewal&category=VERL`]: [offer('R1')],
      },
      { [`${S}/recommendations/R1/accept?source=renewal&category=VERL`]: { url: null, status: 'applied' } },
    );
    const page = await render(<RenewalScreen />, {
      api,
      path: `${S}/renewal`,
      route: 'subscriptions/:id/renewal',
    });
    expect(page.textContent).toContain(en['renewal.revokesCancellation']);
    await act(async () => page.querySelector<HTMLInputElement>('input[name="renewal-offer"]')!.click());
    await settle();
    await click(byText(page, 'button', en['renewal.submit']));
    expect(page.querySelector('dialog[open]')!.textContent).toContain(
      en['renewal.successTextRevoked'].replace('{{title}}', subscription.displayName),
    );
  });

  it('renewal: an offer accepted already is refused with its own dialog, not the generic error (409 offer_already_accepted)', async () => {
    const api = fakeApi(
      {
        [S]: { ...subscription, isRenewal: true },
        [`${S}/recommendations?source=renewal&category=VERL`]: [offer('R1')],
      },
      {
        [`${S}/recommendations/R1/accept?source=renewal&category=VERL`]: new ApiError(
          409,
          'offer_already_accepted',
          'This offer has already been accepted for this subscription.',
        ),
      },
    );
    const page = await render(<RenewalScreen />, {
      api,
      path: `${S}/renewal`,
      route: 'subscriptions/:id/renewal',
    });
    await act(async () => page.querySelector<HTMLInputElement>('input[name="renewal-offer"]')!.click());
    await settle();
    await click(byText(page, 'button', en['renewal.submit']));
    expect(page.querySelector('dialog[open] h2')!.textContent).toBe(en['account.offer.alreadyAcceptedTitle']);
    expect(page.querySelector('dialog[open]')!.textContent).toContain(
      en['account.offer.alreadyAcceptedText'],
    );
  });

  // §2 "Without login, success shows an inline success screen instead of a dialog": the session
  // decides, not the entry page's `returnTo`, which a signed-in subscriber's choice carries too.
  it.each([
    { who: 'without login (order-number link)', loginSource: 'order-number' as const, inline: true },
    { who: 'signed in, chosen on the entry page', loginSource: undefined, inline: false },
  ])('renewal $who, with returnTo: the success inline is $inline', async ({ loginSource, inline }) => {
    const api = fakeApi(
      {
        [S]: { ...subscription, isRenewal: true },
        [`${S}/recommendations?source=renewal&category=VERL`]: [offer('R1')],
      },
      { [`${S}/recommendations/R1/accept?source=renewal&category=VERL`]: { url: null, status: 'applied' } },
    );
    const page = await render(<RenewalScreen />, {
      api,
      path: `${S}/renewal?returnTo=renewal`,
      route: 'subscriptions/:id/renewal',
      ...(loginSource ? { loginSource } : {}),
    });
    await act(async () => page.querySelector<HTMLInputElement>('input[name="renewal-offer"]')!.click());
    await click(byText(page, 'button', en['renewal.submit']));
    const title = page.querySelector(inline ? '[data-testid="offer-success"] h1' : 'dialog[open] h2');
    expect(title!.textContent).toBe(en['renewal.successTitle']);
    expect(page.querySelector(inline ? 'dialog[open]' : '[data-testid="offer-success"]')).toBeNull();
  });

  it('renewal: no offers gives the no-options message with a contact link', async () => {
    const api = fakeApi({
      [S]: { ...subscription, isRenewal: true },
      [`${S}/recommendations?source=renewal&category=VERL`]: [],
    });
    const page = await render(<RenewalScreen />, {
      api,
      path: `${S}/renewal`,
      route: 'subscriptions/:id/renewal',
    });
    expect(page.textContent).toContain(en['renewal.empty']);
    expect(byText(page, 'a', en['account.flow.contactUs'])!.getAttribute('href')).toBe(
      '/contact?subscriptionId=SKZ4123456789',
    );
  });

  it('renewal: while a renewal runs, says until when instead of the no-options message', async () => {
    const api = fakeApi({
      [S]: { ...subscription, isRenewal: true, renewedUntil: '2028-01-05' },
      [`${S}/recommendations?source=renewal&category=VERL`]: [],
    });
    const page = await render(<RenewalScreen />, {
      api,
      path: `${S}/renewal`,
      route: 'subscriptions/:id/renewal',
    });
    expect(page.textContent).toContain(
      'You have already renewed this subscription: it runs until 5 Jan 2028. You can renew it again when this term ends.',
    );
    expect(page.textContent).not.toContain(en['renewal.empty']);
  });

  it('upgrade: while an upgrade is planned, names it instead of the no-options message', async () => {
    const api = fakeApi({
      [S]: {
        ...subscription,
        plannedUpgrade: { from: '2027-01-25', mixType: 'KO', mixTypeDesc: 'Print + digital bundle' },
      },
      [`${S}/recommendations?source=upgrade&category=UPGRD`]: [],
    });
    const page = await render(<UpgradeScreen />, {
      api,
      path: `${S}/upgrade`,
      route: 'subscriptions/:id/upgrade',
    });
    expect(page.textContent).toContain('A change of this subscription to ');
    expect(page.textContent).toContain(' from 25 Jan 2027 is already planned.');
    expect(page.textContent).not.toContain(en['upgrade.empty']);
  });

  it('upgrade: the first offer at an allowed time is chosen, and its time goes with the accept call', async () => {
    const now = offer('U1', {
      article: undefined,
      upgradeOption: {
        text: 'Digital now',
        upgradeTime: 'NOW',
        surchargeAmount: 5,
        surchargeCurrency: 'EUR',
        nextPaymentAmount: 20,
        nextPaymentCurrency: 'EUR',
      },
    });
    const next = offer('U2', {
      article: undefined,
      upgradeOption: {
        text: 'Digital next year',
        upgradeTime: 'NEXT_CYCLE',
        surchargeAmount: 0,
        surchargeCurrency: 'EUR',
        nextPaymentAmount: 25,
        nextPaymentCurrency: 'EUR',
      },
    });
    const api = fakeApi(
      { [S]: subscription, [`${S}/recommendations?source=upgrade&category=UPGRD`]: [now, next] },
      {
        [`${S}/recommendations/U2/accept?source=upgrade&category=UPGRD&upgradeTime=NEXT_CYCLE`]: {
          url: null,
          status: 'applied',
        },
      },
    );
    const page = await render(<UpgradeScreen />, {
      api,
      path: `${S}/upgrade`,
      route: 'subscriptions/:id/upgrade',
    });
    const radios = page.querySelectorAll<HTMLInputElement>('input[name="upgrade-offer"]');
    expect(radios).toHaveLength(1);
    expect(radios[0].checked).toBe(true);
    expect(page.textContent).toContain(en['account.offers.upgradeTime.NEXT_CYCLE']);
    await click(byText(page, 'button', en['upgrade.submit']));
    expect(api.calls.filter((call) => call.method === 'POST').at(-1)!.path).toBe(
      `${S}/recommendations/U2/accept?source=upgrade&category=UPGRD&upgradeTime=NEXT_CYCLE`,
    );
    // Planned, not made: the success says when, as the mail and the subscription page do.
    const done = page.querySelector('dialog')!;
    expect(done.textContent).toContain(
      en['upgrade.successTextNextCycle'].replace('{{title}}', subscription.displayName),
    );
    expect(done.textContent).not.toContain(
      en['upgrade.successText'].replace('{{title}}', subscription.displayName),
    );
  });

  it('upgrade: an upgrade to the format it has or will have is refused with its own dialog (409 upgrade_format_held)', async () => {
    const next = offer('U2', {
      article: undefined,
      upgradeOption: {
        text: 'Print + digital from the next period',
        upgradeTime: 'NEXT_CYCLE',
        surchargeAmount: 0,
        surchargeCurrency: 'EUR',
        nextPaymentAmount: 25,
        nextPaymentCurrency: 'EUR',
      },
    });
    const api = fakeApi(
      { [S]: subscription, [`${S}/recommendations?source=upgrade&category=UPGRD`]: [next] },
      {
        [`${S}/recommendations/U2/accept?source=upgrade&category=UPGRD&upgradeTime=NEXT_CYCLE`]: new ApiError(
          409,
          'upgrade_format_held',
          'This subscription already has, or will have, the format this upgrade offers.',
        ),
      },
    );
    const page = await render(<UpgradeScreen />, {
      api,
      path: `${S}/upgrade`,
      route: 'subscriptions/:id/upgrade',
    });
    await click(byText(page, 'button', en['upgrade.submit']));
    expect(page.querySelector('dialog[open] h2')!.textContent).toBe(en['account.offer.formatHeldTitle']);
    expect(page.querySelector('dialog[open]')!.textContent).toContain(en['account.offer.formatHeldText']);
  });
});

describe('an upgrade page while an offer waits for its payment', () => {
  it('leaves it to the open payment’s notice to say why nothing is offered, not "none at all"', async () => {
    const open = {
      id: 'pay-1',
      subscriptionId: subscription.id,
      amount: 9,
      currency: 'EUR',
      method: 'CREDIT_CARD',
      createdAt: '2026-11-29T17:30:00.000Z',
      orderNumbers: [subscription.orderNumber],
    };
    for (const [payments, saysEmpty] of [
      [[open], false],
      [[], true],
    ] as const) {
      const api = fakeApi({
        [S]: subscription,
        [`${S}/recommendations?source=upgrade&category=UPGRD`]: [],
        [`${S}/pending-payments`]: payments,
      });
      const page = await render(<UpgradeScreen />, {
        api,
        path: `${S}/upgrade`,
        route: 'subscriptions/:id/upgrade',
      });
      expect(page.textContent!.includes(en['upgrade.empty']), `payments: ${payments.length}`).toBe(saysEmpty);
      expect(page.textContent!.includes(en['account.flow.giveUpPayment'])).toBe(!saysEmpty);
      expect(byText(page, 'button', en['account.flow.back'])).toBeDefined();
      cleanUp();
    }
  });
});

describe('renewal entry (§2 anonymous entry)', () => {
  it('sends the prefilled form once by itself and says where the link went', async () => {
    const api = fakeApi(
      {},
      {
        '/login/order-number': new ApiError(400, 'confirm_email', 'sent', {
          status: 'confirm_email',
          maskedEmail: 'a***@example.com',
        }),
      },
    );
    const page = await render(<RenewalEntryScreen />, {
      api,
      path: '/renewal?orderNumber=4123456789&lastName1=Schmidt&email=anna@example.com',
      route: 'renewal',
      loginSource: null,
    });
    expect(api.calls).toEqual([
      {
        method: 'POST',
        path: '/login/order-number',
        body: { orderNumber: '4123456789', lastName: 'Schmidt', email: 'anna@example.com', flow: 'renewal' },
      },
    ]);
    expect(page.textContent).toContain('We have sent a link to a***@example.com');
  });

  it('checks the order number: 10 digits starting with 4', async () => {
    const api = fakeApi();
    const page = await render(<RenewalEntryScreen />, {
      api,
      path: '/renewal?orderNumber=5123456789&lastName1=Schmidt',
      route: 'renewal',
      loginSource: null,
    });
    expect(api.calls).toEqual([]);
    await click(byText(page, 'button', en['account.entry.submit']));
    expect(page.textContent).toContain(en['account.entry.invalidOrderNumber']);
    expect(api.calls).toEqual([]);
  });

  it('signed in: lists the subscriptions that can be renewed and goes on with returnTo', async () => {
    const renewable = { ...subscription, isRenewal: true };
    const other = makeSubscription({
      id: 'SKZ4000000002',
      orderNumber: '4000000002',
      displayName: 'Not renewable',
    });
    // Renewed already: while that term runs no further renewal is offered, here as on its card.
    const renewed = makeSubscription({
      id: 'SKZ4000000003',
      orderNumber: '4000000003',
      displayName: 'Renewed',
      isRenewal: true,
      renewedUntil: '2028-01-05',
    });
    const page = await render(<RenewalEntryScreen />, {
      api: fakeApi({ '/subscriptions': [renewable, other, renewed] }),
      path: '/renewal',
      route: 'renewal',
    });
    const select = labelled<HTMLSelectElement>(page, `${en['account.picker.label']} *`);
    expect([...select.options].map((o) => o.textContent)).toEqual([
      en['account.picker.placeholder'],
      'Stadtkurier – Print (4123456789)',
    ]);
    await click(byText(page, 'button', en['account.picker.continue']));
    expect(page.querySelector('[data-testid="elsewhere"]')!.textContent).toBe(
      '/subscriptions/SKZ4123456789/renewal?returnTo=renewal',
    );
  });
});

describe('bulk renewal (§2, §5)', () => {
  const received = { ...subscription, roles: ['WE' as const], isRenewal: true };
  const second = { ...received, id: 'SKZ4000000002', orderNumber: '4000000002', displayName: 'Technikwelt' };
  const card = offer('C1', { paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }] });
  const debit = offer('D1', { paymentProviders: [{ PAYMENT_PROVIDER: 'DIRECT_DEBIT' }] });

  it('keeps submit disabled until an offer is chosen and refuses card with direct debit', async () => {
    const api = fakeApi(
      {
        '/subscriptions': [received, second],
        [`${S}/recommendations?source=bulk-renewal`]: [card],
        '/subscriptions/SKZ4000000002/recommendations?source=bulk-renewal': [debit],
      },
      { '/subscriptions/acceptAllRecommendations': { url: null, status: 'applied' } },
    );
    const page = await render(<BulkRenewalScreen />, { api, path: '/bulk-renewal', route: 'bulk-renewal' });
    const submit = () => byText(page, 'button', en['renewal.bulk.submit']) as HTMLButtonElement;
    expect(submit().disabled).toBe(true);

    await act(async () =>
      page.querySelector<HTMLInputElement>('input[name="bulk-SKZ4123456789"][value="C1"]')!.click(),
    );
    await settle();
    await act(async () =>
      page.querySelector<HTMLInputElement>('input[name="bulk-SKZ4000000002"][value="D1"]')!.click(),
    );
    await settle();
    expect(page.textContent).toContain(en['renewal.bulk.paymentConflict']);
    expect(submit().disabled).toBe(true);

    await act(async () =>
      page.querySelector<HTMLInputElement>('input[name="bulk-SKZ4000000002"][value=""]')!.click(),
    );
    await settle();
    expect(submit().disabled).toBe(false);
    await click(submit());
    expect(api.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/subscriptions/acceptAllRecommendations',
      body: {
        selectedRecommendations: {
          SKZ4123456789: { recommendationId: 'C1', paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }] },
        },
      },
    });
    expect(page.querySelector('dialog[open] h2')!.textContent).toBe(en['renewal.bulk.successTitle']);
  });

  it('names the order a refused submit names (§8 "the server data"), else says it failed', async () => {
    let refusal = new ApiError(403, 'not_allowed', 'refused', { orderNumber: '4123456789' });
    const api = fakeApi(
      {
        '/subscriptions': [received],
        [`${S}/recommendations?source=bulk-renewal`]: [card],
      },
      {
        '/subscriptions/acceptAllRecommendations': () => {
          throw refusal;
        },
      },
    );
    const page = await render(<BulkRenewalScreen />, { api, path: '/bulk-renewal', route: 'bulk-renewal' });
    await act(async () =>
      page.querySelector<HTMLInputElement>('input[name="bulk-SKZ4123456789"][value="C1"]')!.click(),
    );
    await settle();
    const submit = byText(page, 'button', en['renewal.bulk.submit']) as HTMLButtonElement;
    await click(submit);
    expect(page.querySelector('.alert')!.textContent).toBe(
      en['renewal.bulk.submitErrorOf'].replace('{{orderNumber}}', '4123456789'),
    );
    // The choice stays: the subscriber may choose again and send.
    expect(
      page.querySelector<HTMLInputElement>('input[name="bulk-SKZ4123456789"][value="C1"]')!.checked,
    ).toBe(true);
    refusal = new ApiError(500, 'internal_error', 'failed');
    await click(submit);
    expect(page.querySelector('.alert')!.textContent).toBe(en['renewal.bulk.submitError']);
  });

  it('lists only what the server would renew: a subscription managed elsewhere neither asks nor fails the page', async () => {
    const external = { ...second, id: 'SKZ4000000003', orderNumber: '4000000003', salesDocumentType: 'WBZA' };
    const api = fakeApi({
      '/subscriptions': [received, external],
      [`${S}/recommendations?source=bulk-renewal`]: [card],
    });
    const page = await render(<BulkRenewalScreen />, { api, path: '/bulk-renewal', route: 'bulk-renewal' });
    expect(page.querySelector('input[name="bulk-SKZ4123456789"][value="C1"]')).not.toBeNull();
    expect(page.textContent).not.toContain(en['renewal.bulk.loadError']);
    expect(api.calls.map((call) => call.path)).not.toContain(
      '/subscriptions/SKZ4000000003/recommendations?source=bulk-renewal',
    );
  });

  it("names a payment of the page left open, once for the subscriptions it holds, instead of 'nothing to renew', and gives it up", async () => {
    const open = {
      id: 'pay-9',
      subscriptionId: S.replace('/subscriptions/', ''),
      amount: 216,
      currency: 'EUR',
      method: 'CREDIT_CARD',
      createdAt: '2026-12-07T04:07:00.000Z',
      orderNumbers: ['4123456789', '4000000002'],
    };
    let givenUp = false;
    const api = fakeApi(
      {
        '/subscriptions': [received, second],
        // While the payment is open, the server offers neither subscription anything.
        [`${S}/recommendations?source=bulk-renewal`]: () => (givenUp ? [card] : []),
        '/subscriptions/SKZ4000000002/recommendations?source=bulk-renewal': () => (givenUp ? [debit] : []),
        [`${S}/pending-payments`]: () => (givenUp ? [] : [open]),
        '/subscriptions/SKZ4000000002/pending-payments': () => (givenUp ? [] : [open]),
      },
      {
        [`${S}/pending-payments/pay-9/abandon`]: () => {
          givenUp = true;
          return { status: 'canceled' };
        },
      },
    );
    const page = await render(<BulkRenewalScreen />, { api, path: '/bulk-renewal', route: 'bulk-renewal' });
    await settleUntil(() => page.textContent!.includes(en['account.flow.giveUpPayment']));
    expect(page.querySelectorAll('.alert')).toHaveLength(1);
    expect(page.textContent).toContain('4123456789, 4000000002');
    expect(page.textContent).not.toContain(en['renewal.bulk.empty']);
    await click(byText(page, 'button', en['account.flow.giveUpPayment']));
    await settleUntil(() => page.querySelector('input[name="bulk-SKZ4123456789"][value="C1"]') !== null);
    expect(page.textContent).not.toContain(en['account.flow.giveUpPayment']);
  });

  it('says there is nothing to renew when the one received subscription is managed elsewhere', async () => {
    const external = { ...received, salesDocumentType: 'WBZA' };
    const api = fakeApi({ '/subscriptions': [external] });
    const page = await render(<BulkRenewalScreen />, { api, path: '/bulk-renewal', route: 'bulk-renewal' });
    expect(page.textContent).toContain(en['renewal.bulk.empty']);
    expect(page.textContent).not.toContain(en['renewal.bulk.loadError']);
  });

  it('shows the feature-disabled notice when the tenant does not offer bulk renewal', async () => {
    const portal = config({ renewal: { forceWithAutoRenewal: false, bulkRenewal: false } });
    const page = await render(<BulkRenewalScreen />, {
      api: fakeApi(),
      path: '/bulk-renewal',
      route: 'bulk-renewal',
      portal,
    });
    expect(page.textContent).toContain(en['shell.featureDisabledTitle']);
  });
});
