// @vitest-environment jsdom
/**
 * Flow pages opened by URL for a subscription their capability rule refuses (account-flows.md §6):
 * the shared notice (engine/account/FlowUnavailable.tsx) with the flow's heading, the reason where
 * the rule tells it and the way back — never the generic load-error dialog the refused calls led to.
 */
import { readFileSync } from 'node:fs';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../schemas/generated/subscription';
import { ApiError } from '../../../engine/domain/apiError';
import { flowRefusal } from '../../../engine/account/flowRefusal';
import CancellationScreen from '../../../engine/features/cancellation/CancellationScreen';
import HolidayServiceScreen from '../../../engine/features/holiday-service/HolidayServiceScreen';
import ComplaintScreen from '../../../engine/features/issue-complaint/ComplaintScreen';
import OptInsScreen from '../../../engine/features/opt-ins/OptInsScreen';
import PaymentDetailsScreen from '../../../engine/features/payment-method-change/PaymentDetailsScreen';
import { makeSubscription, withRoles } from '../../support/subscriptionBuilder';
import {
  byText,
  cleanUp,
  click,
  config,
  de,
  en,
  fakeApi,
  openDialog,
  polyfillDialogs,
  render,
} from '../changes/harness';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const refused = () => new ApiError(403, 'not_allowed', 'refused by the capability rule');
const TEXTS = { 'en-GB': en, 'de-DE': de };

interface Case {
  flow: string;
  screen: ReactNode;
  segment: string;
  subscription: Subscription;
  /** The flow's own data call, which the server refuses by the same rule. */
  call: string;
  tenant?: Record<string, unknown>;
  heading: string;
  /** The sentences of the notice: the general one and the rule's reason, or the flow's own. */
  reason: string[];
  contact: boolean;
  /** A flow not offered for the subscription names the tenant's fallback e-mail and phone (§1). */
  fallbackContact?: boolean;
}

const CASES: Case[] = [
  {
    flow: 'holiday service of a publication the tenant blacklists for it',
    screen: <HolidayServiceScreen />,
    segment: 'holiday-service',
    subscription: makeSubscription(),
    call: 'holiday-service',
    tenant: { holidayService: { blacklistedPublications: ['SKT'] } },
    heading: 'holiday-service.heading',
    // The holiday page keeps its own sentence for a title it offers no service for.
    reason: ['holiday-service.noTypes'],
    contact: true,
    fallbackContact: true,
  },
  {
    flow: 'issue complaint of an inactive subscription',
    screen: <ComplaintScreen />,
    segment: 'complaint',
    subscription: makeSubscription({ orderStatus: 'I' }),
    call: 'complaint',
    heading: 'issue-complaint.heading',
    reason: ['account.flow.unavailable.title', 'account.flow.unavailable.inactive'],
    contact: false,
  },
  {
    flow: 'payment method change for a goods recipient who does not pay',
    screen: <PaymentDetailsScreen />,
    segment: 'payment-details',
    subscription: withRoles(['WE']),
    call: 'payment-details',
    heading: 'payment-method-change.heading',
    reason: ['account.flow.unavailable.title', 'account.flow.unavailable.notOrderingParty'],
    contact: false,
  },
  {
    flow: 'opt-ins of a subscription managed outside the portal',
    screen: <OptInsScreen />,
    segment: 'opt-ins',
    subscription: makeSubscription({ salesDocumentType: 'WBZA' }),
    call: 'opt-ins/0012345678',
    heading: 'opt-ins.heading',
    reason: ['account.flow.unavailable.title', 'account.flow.unavailable.externallyManaged'],
    contact: true,
  },
];

const fill = (text: string, title: string) => text.replace('{{title}}', title);

describe('a flow page for a subscription its rule refuses', () => {
  for (const c of CASES) {
    for (const locale of ['en-GB', 'de-DE'] as const) {
      it(`says the ${c.flow} is not available, with why and the way back, in ${locale}`, async () => {
        const texts = TEXTS[locale];
        const S = `/subscriptions/${c.subscription.id}`;
        const api = fakeApi({ [S]: c.subscription, [`${S}/${c.call}`]: refused() });
        const { page, router } = await render(c.screen, {
          api,
          path: `${S}/${c.segment}`,
          route: `subscriptions/:id/${c.segment}`,
          portal: config(c.tenant),
          locale,
        });
        const notice = page.querySelector('[data-testid="flow-unavailable"]');
        expect(notice, 'the shared notice').not.toBeNull();
        expect(openDialog(page), 'no error dialog').toBeUndefined();
        expect(page.querySelector('h1')!.textContent).toBe(texts[c.heading]);
        const sentences = [...notice!.querySelectorAll('.alert p')].map((p) => p.textContent);
        expect(sentences.slice(0, c.reason.length)).toEqual(
          c.reason.map((key) => fill(texts[key], c.subscription.displayName)),
        );
        expect(byText(page, 'a', texts['account.flow.contactUs'])?.getAttribute('href') ?? null).toBe(
          c.contact ? `/contact?subscriptionId=${c.subscription.id}` : null,
        );

        const fallback = [...notice!.querySelectorAll('.fallback-contact a')].map((a) =>
          a.getAttribute('href'),
        );
        expect(
          fallback.some((link) => link?.startsWith('mailto:')) &&
            fallback.some((link) => link?.startsWith('tel:')),
        ).toBe(Boolean(c.fallbackContact));

        await click(byText(page, 'button', texts['account.flow.back']));
        expect(router.state.location.pathname).toBe(S);
      });
    }
  }

  it('keeps the cancellation page’s own notice for a subscription already cancelled', async () => {
    const cancellationTexts = JSON.parse(readFileSync('engine/features/cancellation/texts.json', 'utf8'));
    const base = config({ features: ['cancellation', 'contact-form'] });
    const portal = {
      ...base,
      texts: {
        'en-GB': { ...en, ...cancellationTexts['en-GB'] },
        'de-DE': { ...de, ...cancellationTexts['de-DE'] },
      },
    };
    const subscription = makeSubscription({ orderStatus: 'AK', isCancelable: false });
    const S = `/subscriptions/${subscription.id}`;
    const api = fakeApi({ [S]: subscription });
    const { page } = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal,
    });
    expect(page.querySelector('[data-testid="flow-unavailable"]')).toBeNull();
    expect(page.textContent).toContain(cancellationTexts['en-GB']['cancellation.alreadyCancelled']);
  });

  it('says an active subscription that cannot be cancelled cannot be cancelled online, instead of opening the form', async () => {
    const base = config({ features: ['cancellation', 'contact-form'] });
    const subscription = makeSubscription({ isCancelable: false });
    const S = `/subscriptions/${subscription.id}`;
    const api = fakeApi({ [S]: subscription, [`${S}/cancellation-infos`]: refused() });
    const { page } = await render(<CancellationScreen />, {
      api,
      path: `${S}/cancellation`,
      route: 'subscriptions/:id/cancellation',
      portal: base,
    });
    expect(page.querySelector('[data-testid="flow-unavailable"]')!.textContent).toContain(
      fill(en['account.flow.unavailable.notCancelable'], subscription.displayName),
    );
    expect(openDialog(page)).toBeUndefined();
  });
});

describe('flowRefusal', () => {
  const ctx = (tenant: Record<string, unknown> = {}) => ({
    tenant: { features: ['holiday-break', 'issue-complaint', 'cancellation'], ...tenant },
  });

  it('is null where the rule allows the flow', () => {
    expect(flowRefusal('holidayService', makeSubscription(), ctx())).toBeNull();
  });

  it('names the tenant flag first, then bundle components and licence users, then the rule’s facts', () => {
    expect(flowRefusal('paymentMethodChange', makeSubscription(), ctx())).toBe('notOffered');
    const slave = makeSubscription({
      renewal: { ...makeSubscription().renewal!, renewalBundleComponent: 'S' },
    });
    expect(flowRefusal('holidayService', slave, ctx())).toBe('bundleComponent');
    expect(flowRefusal('issueComplaint', makeSubscription({ isLicenseUser: true }), ctx())).toBe(
      'licenceUser',
    );
    expect(flowRefusal('holidayService', withRoles(['LV']), ctx())).toBe('licenceManager');
    expect(flowRefusal('cancellation', makeSubscription({ isCancelable: false }), ctx())).toBe(
      'notCancelable',
    );
  });

  it('falls back to the general notice where no single fact explains the refusal', () => {
    expect(flowRefusal('issueComplaint', makeSubscription({ isTimebased: true }), ctx())).toBe('other');
  });
});
