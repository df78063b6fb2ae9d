import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  checkCapability,
  can,
  canCancel,
  canRenew,
  detailVisibility,
  externalLinkUrl,
  holidayServiceTypes,
  isHiddenBundleComponent,
  showsCardDownload,
  showsCardRenewal,
  offersRenewal,
  visibleBundleComponents,
  type Capability,
  type CapabilityContext,
} from '../../engine/domain/capabilities';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';
import { makeSubscription, withRoles } from '../support/subscriptionBuilder';
import type { Subscription } from '../../schemas/generated/subscription';

const everything: CapabilityContext = {
  tenant: {
    features: [...FEATURE_FLAGS],
    giftCertificate: { salesSources: ['GIFT'] },
    externalSubscriptionLink: { urlTemplate: 'https://shop.example/{publication}/{orderNumber}' },
    cancellation: { revocationContactActivity: 'REVOKE' },
    orderAttributes: { attributes: [{ type: 'NOTE', editable: true }] },
  },
};

const digital = {
  mixType: 'DE',
  mixTypeDetails: { mixTypeDesc: 'E-Paper', mediumType: 'DE', pdfDownload: true, complaintIssues: 0 },
} as const;
const renewal = (patch: Partial<NonNullable<Subscription['renewal']>>) => ({
  ...makeSubscription().renewal!,
  ...patch,
});

// One row per kind of subscription of §3/§4/§6; the columns are the capability rules of §6.
const subscriptions: Record<string, Subscription> = {
  'active print, own (AG WE RE)': makeSubscription(),
  'cancelled print (AK)': makeSubscription({ orderStatus: 'AK', isCancelable: false }),
  'inactive (I)': makeSubscription({ orderStatus: 'I', isCancelable: false }),
  'starts later (IZ), time-based online': makeSubscription({
    orderStatus: 'IZ',
    mixType: 'ON',
    isTimebased: true,
    currentPhase: { canUpgrade: true },
  }),
  'suspended with end date (IU)': makeSubscription({
    orderStatus: 'IU',
    currentSuspension: { suspendedFromDate: '2026-01-01', suspendedToDate: '2026-02-01' },
  }),
  'suspended open-ended (IU)': makeSubscription({
    orderStatus: 'IU',
    currentSuspension: { suspendedFromDate: '2026-01-01', suspendedToDate: null },
  }),
  'externally managed renewal (WBZA)': makeSubscription({
    salesDocumentType: 'WBZA',
    isRenewal: true,
    isCancelable: false,
  }),
  'gift recipient only (WE)': withRoles(['WE'], { salesSource: 'GIFT' }),
  'cancelled gift, its recipient (WE)': withRoles(['WE'], { salesSource: 'GIFT', orderStatus: 'AK' }),
  'gift given (AG RE)': withRoles(['AG', 'RE'], { salesSource: 'GIFT' }),
  'invoice recipient only (RE), e-paper': withRoles(['RE'], digital),
  'licence manager (LV) of a multi-licence e-paper': withRoles(['LV'], { ...digital, isMultiLicense: true }),
  'own e-paper': makeSubscription(digital),
  'renewable without auto-renewal': makeSubscription({ isRenewal: true }),
  'renewable with auto-renewal': makeSubscription({
    isRenewal: true,
    renewal: renewal({ autoRenewal: true }),
  }),
  membership: makeSubscription({ mixType: 'MG', renewal: renewal({ offerClassification: 'M' }) }),
  'bundle master (combo)': makeSubscription({
    mixType: 'KO',
    isCombiSubscription: true,
    bundle: { bundleNumber: '7100000001' },
    renewal: renewal({ renewalBundleComponent: 'M' }),
  }),
};

type Row = Record<Capability, boolean>;
const Y = true;
const N = false;
// prettier-ignore
const expected: Record<string, Partial<Row>> = {
  //                                                 holiday complaint cancel revoke upgrade pmChange billing calendar payHist address optIns issueHist download gift renewal licences phase eCard invReq invDl extLink attrs contact
  'active print, own (AG WE RE)':                     { holidayService: Y, issueComplaint: Y, cancellation: Y, cancellationRevocation: N, upgrade: Y, paymentMethodChange: Y, billingFrequency: Y, issueCalendar: Y, paymentHistory: Y, addressChange: Y, optIns: Y, issueHistory: Y, issueDownload: N, giftCertificate: N, renewal: N, multiUserLicenses: N, phaseUpgrade: N, eCard: Y, invoiceRequest: Y, invoiceDownload: Y, externalLink: Y, orderAttributes: Y, contact: Y },
  'cancelled print (AK)':                             { holidayService: Y, issueComplaint: Y, cancellation: N, cancellationRevocation: Y, paymentMethodChange: Y, issueCalendar: Y },
  'inactive (I)':                                     { holidayService: N, issueComplaint: N, cancellation: N, paymentMethodChange: N, billingFrequency: N, issueCalendar: N, paymentHistory: Y, upgrade: Y },
  'starts later (IZ), time-based online':             { holidayService: N, issueComplaint: N, issueCalendar: N, phaseUpgrade: Y, paymentMethodChange: Y },
  'suspended with end date (IU)':                     { holidayService: Y, issueComplaint: N, paymentMethodChange: N, phaseUpgrade: N },
  'suspended open-ended (IU)':                        { holidayService: N },
  'externally managed renewal (WBZA)':                { holidayService: N, issueComplaint: N, cancellation: Y, paymentMethodChange: N, billingFrequency: N, paymentHistory: N, addressChange: N, optIns: N, renewal: Y, invoiceRequest: N, invoiceDownload: N },
  'gift recipient only (WE)':                         { upgrade: N, paymentMethodChange: N, paymentHistory: N, giftCertificate: N, invoiceRequest: N, orderAttributes: N, holidayService: Y, addressChange: Y, cancellation: N },
  'cancelled gift, its recipient (WE)':               { cancellation: N, cancellationRevocation: N },
  'gift given (AG RE)':                               { giftCertificate: Y, paymentHistory: Y, issueDownload: N, cancellation: Y, holidayService: Y },
  'invoice recipient only (RE), e-paper':             { issueDownload: N, paymentHistory: N, invoiceRequest: N, upgrade: N, multiUserLicenses: N, cancellation: N, holidayService: N },
  'licence manager (LV) of a multi-licence e-paper':  { holidayService: N, issueComplaint: N, cancellation: N, issueCalendar: N, addressChange: N, optIns: N, issueHistory: N, multiUserLicenses: Y, issueDownload: N, paymentHistory: N },
  'own e-paper':                                      { issueDownload: Y, issueComplaint: N, holidayService: Y },
  'renewable without auto-renewal':                   { renewal: Y },
  'renewable with auto-renewal':                      { renewal: N },
  'membership':                                       { issueHistory: N, issueComplaint: N },
  'bundle master (combo)':                            { issueHistory: N, issueComplaint: Y },
};

describe('capability rules of §6: a table of subscriptions × rules', () => {
  it('names every capability in the first row', () => {
    expect(Object.keys(expected['active print, own (AG WE RE)']).sort()).toEqual([...CAPABILITIES].sort());
  });

  for (const [name, row] of Object.entries(expected)) {
    for (const [capability, allowed] of Object.entries(row)) {
      it(`${name}: ${capability} is ${allowed ? 'offered' : 'refused'}`, () => {
        expect(can(capability as Capability, subscriptions[name], everything)).toBe(allowed);
      });
    }
  }

  it('refuses everything gated by a flag when the tenant has it off, and says so', () => {
    const none: CapabilityContext = { tenant: { features: [] } };
    for (const capability of CAPABILITIES) {
      const check = checkCapability(capability, subscriptions['active print, own (AG WE RE)'], none);
      if (capability === 'orderAttributes')
        expect(check).toEqual({ allowed: false, reason: 'notOffered' }); // no flag; no attributes configured
      else expect(check, capability).toEqual({ allowed: false, reason: 'featureDisabled' });
    }
  });

  it('applies per-publication blacklists', () => {
    const ctx: CapabilityContext = {
      tenant: { features: ['cancellation'], publicationBlacklists: { cancellation: ['SKT'] } },
    };
    expect(checkCapability('cancellation', makeSubscription(), ctx)).toEqual({
      allowed: false,
      reason: 'featureDisabled',
    });
    expect(canCancel(makeSubscription({ publication: 'SKS' }), ctx)).toBe(true);
  });

  it("leaves a bundle component only its own issues: every other action is the master's (§2)", () => {
    const component = makeSubscription({
      mixType: 'DE',
      mixTypeDetails: { ...makeSubscription().mixTypeDetails, pdfDownload: true },
      bundle: { bundleNumber: '7100000001' },
      renewal: renewal({ renewalBundleComponent: 'S' }),
    });
    for (const capability of [
      'invoiceRequest',
      'cancellation',
      'paymentHistory',
      'addressChange',
      'orderAttributes',
    ] as Capability[]) {
      expect(checkCapability(capability, component, everything), capability).toEqual({
        allowed: false,
        reason: 'bundleComponent',
      });
    }
    expect(checkCapability('issueHistory', component, everything)).toEqual({ allowed: true });
  });

  it('tells a refused rule apart from a switched-off feature', () => {
    expect(checkCapability('paymentHistory', subscriptions['gift recipient only (WE)'], everything)).toEqual({
      allowed: false,
      reason: 'notOrderingParty',
    });
  });

  it('gives the reason of the rule with the verdict, the first fact that refuses', () => {
    const reason = (capability: Capability, name: string) => {
      const verdict = checkCapability(capability, subscriptions[name], everything);
      return verdict.allowed ? 'allowed' : verdict.reason;
    };
    expect(reason('holidayService', 'licence manager (LV) of a multi-licence e-paper')).toBe(
      'licenceManager',
    );
    expect(reason('holidayService', 'inactive (I)')).toBe('inactive');
    expect(reason('holidayService', 'starts later (IZ), time-based online')).toBe('other');
    expect(reason('paymentMethodChange', 'externally managed renewal (WBZA)')).toBe('externallyManaged');
    expect(reason('cancellation', 'cancelled print (AK)')).toBe('notCancelable');
    expect(reason('upgrade', 'gift recipient only (WE)')).toBe('notOrderingParty');
    // Ending the contract is the ordering party's; the deliveries are the recipient's too.
    expect(reason('cancellation', 'gift recipient only (WE)')).toBe('notOrderingParty');
    expect(reason('cancellation', 'invoice recipient only (RE), e-paper')).toBe('notOrderingParty');
    expect(reason('holidayService', 'invoice recipient only (RE), e-paper')).toBe('notRecipient');
    expect(reason('issueComplaint', 'own e-paper')).toBe('other');
    expect(reason('renewal', 'renewable with auto-renewal')).toBe('other');
  });

  it('offers renewal with auto-renewal when the tenant forces it', () => {
    const forced: CapabilityContext = {
      tenant: { ...everything.tenant, renewal: { forceWithAutoRenewal: true } },
    };
    expect(can('renewal', subscriptions['renewable with auto-renewal'], forced)).toBe(true);
  });

  it('offers the holiday service types the tenant has on for the publication, and none for blacklisted mix types', () => {
    const ctx: CapabilityContext = {
      tenant: {
        features: ['holiday-redirect', 'holiday-break'],
        publicationBlacklists: { 'holiday-break': ['SKT'] },
      },
    };
    expect(holidayServiceTypes(makeSubscription(), ctx)).toEqual(['redirect']);
    expect(
      holidayServiceTypes(makeSubscription(), {
        tenant: { ...ctx.tenant, holidayService: { blacklistedMixTypes: ['PR'] } },
      }),
    ).toEqual([]);
  });

  it('leaves the issue history out for excluded publications (optionally one mix type)', () => {
    const ctx: CapabilityContext = {
      tenant: {
        features: ['issue-history'],
        issueHistory: { excludedPublications: [{ publication: 'SKT', mixType: 'DE' }] },
      },
    };
    expect(can('issueHistory', makeSubscription(), ctx)).toBe(true);
    expect(can('issueHistory', makeSubscription(digital), ctx)).toBe(false);
  });

  it('builds the external link and limits it to whitelisted, active subscriptions when configured', () => {
    expect(externalLinkUrl(makeSubscription(), everything)).toBe('https://shop.example/SKT/4123456789');
    const ctx: CapabilityContext = {
      tenant: {
        features: ['external-subscription-link'],
        externalSubscriptionLink: {
          urlTemplate: 'https://x.example/{orderNumber}',
          whitelistedPublications: ['TWP'],
          showOnlyForActive: true,
        },
      },
    };
    expect(can('externalLink', makeSubscription(), ctx)).toBe(false);
    expect(can('externalLink', makeSubscription({ publication: 'TWP' }), ctx)).toBe(true);
    expect(can('externalLink', makeSubscription({ publication: 'TWP', orderStatus: 'I' }), ctx)).toBe(false);
  });
});

describe('orders page card rules (§2)', () => {
  const ctx: CapabilityContext = { tenant: { features: ['issue-download', 'renewal'] } };
  it('shows the download for strict-active subscriptions that support it, and for IZ only when configured', () => {
    expect(showsCardDownload(subscriptions['own e-paper'], ctx)).toBe(true);
    expect(showsCardDownload(makeSubscription({ ...digital, orderStatus: 'I' }), ctx)).toBe(false);
    const later = makeSubscription({ ...digital, orderStatus: 'IZ' });
    expect(showsCardDownload(later, ctx)).toBe(false);
    expect(
      showsCardDownload(later, {
        tenant: { ...ctx.tenant, download: { showDownloadForSubsWithKnownActivationDate: true } },
      }),
    ).toBe(true);
  });

  it('shows the renewal for active, non-bundle, renewable subscriptions without auto-renewal', () => {
    expect(showsCardRenewal(subscriptions['renewable without auto-renewal'], ctx)).toBe(true);
    expect(showsCardRenewal(subscriptions['renewable with auto-renewal'], ctx)).toBe(false);
    expect(showsCardRenewal(makeSubscription({ isRenewal: true, bundle: { bundleNumber: '1' } }), ctx)).toBe(
      false,
    );
    expect(showsCardRenewal(makeSubscription({ isRenewal: true, orderStatus: 'I' }), ctx)).toBe(false);
  });

  it('offers no renewal while one the subscriber accepted runs, and again once it has ended', () => {
    const renewable = subscriptions['renewable without auto-renewal'];
    const renewed: Subscription = { ...renewable, renewedUntil: '2027-06-30' };
    expect(offersRenewal(renewed, ctx)).toBe(false);
    expect(showsCardRenewal(renewed, ctx)).toBe(false);
    expect(offersRenewal({ ...renewable, renewedUntil: null }, ctx)).toBe(true);
    // The renewal screen asks the rule alone, and says until when the renewal runs.
    expect(canRenew(renewed, ctx)).toBe(true);
  });
});

describe('detail display rules (§2 "Subscription detail")', () => {
  const ctx: CapabilityContext = { tenant: { features: ['valid-from'] } };
  it('shows valid-to unless renewal, the expiry issue for renewals cancelled or without auto-renewal', () => {
    expect(detailVisibility(makeSubscription(), ctx)).toMatchObject({ validTo: true, expiryIssue: false });
    expect(detailVisibility(makeSubscription({ isRenewal: true }), ctx)).toMatchObject({
      validTo: false,
      expiryIssue: true,
    });
    expect(
      detailVisibility(makeSubscription({ isRenewal: true, renewal: renewal({ autoRenewal: true }) }), ctx)
        .expiryIssue,
    ).toBe(false);
    expect(
      detailVisibility(
        makeSubscription({ isRenewal: true, orderStatus: 'AK', renewal: renewal({ autoRenewal: true }) }),
        ctx,
      ).expiryIssue,
    ).toBe(true);
  });

  it('shows auto-renewal fields, payment, premium and goods recipient to the ordering party only', () => {
    const auto = { renewal: renewal({ autoRenewal: true }) };
    expect(detailVisibility(makeSubscription(auto), ctx)).toMatchObject({
      autoRenewalFields: true,
      payment: true,
      premium: true,
      goodsRecipient: true,
    });
    expect(detailVisibility(withRoles(['WE'], auto), ctx)).toMatchObject({
      autoRenewalFields: false,
      payment: false,
      premium: false,
      goodsRecipient: false,
    });
  });

  it('shows valid-from when active and not cancelled (and the tenant shows it), suspension when suspended', () => {
    expect(detailVisibility(makeSubscription(), ctx).validFrom).toBe(true);
    expect(detailVisibility(makeSubscription({ orderStatus: 'AK' }), ctx).validFrom).toBe(false);
    expect(detailVisibility(makeSubscription(), { tenant: { features: [] } }).validFrom).toBe(false);
    expect(detailVisibility(subscriptions['suspended with end date (IU)'], ctx).suspension).toBe(true);
    expect(
      detailVisibility(makeSubscription({ activeHolidayServiceType: 'break' }), ctx).holidayIndicator,
    ).toBe(true);
  });
});

describe('bundles (§6)', () => {
  const master = makeSubscription({
    id: 'M',
    publication: 'TWP',
    bundle: { bundleNumber: 'B1' },
    renewal: renewal({ renewalBundleComponent: 'M' }),
  });
  const slave = makeSubscription({
    id: 'S',
    publication: 'TWD',
    bundle: { bundleNumber: 'B1' },
    renewal: renewal({ renewalBundleComponent: 'S' }),
  });
  const other = makeSubscription({
    id: 'O',
    bundle: { bundleNumber: 'B2' },
    renewal: renewal({ renewalBundleComponent: 'S' }),
  });
  const all = [master, slave, other];
  it('lists the master slaves', () => {
    expect(visibleBundleComponents(master, all, { tenant: { features: [] } }).map((s) => s.id)).toEqual([
      'S',
    ]);
    expect(isHiddenBundleComponent(slave, all, { tenant: { features: [] } })).toBe(false);
  });
  it('hides slaves when the master publication is in the hidden-components list', () => {
    const ctx: CapabilityContext = {
      tenant: { features: [], bundle: { publicationsWithHiddenComponents: ['TWP'] } },
    };
    expect(visibleBundleComponents(master, all, ctx)).toEqual([]);
    expect(isHiddenBundleComponent(slave, all, ctx)).toBe(true);
    expect(isHiddenBundleComponent(master, all, ctx)).toBe(false);
  });
});
