/**
 * Subscriptions and their roles, with their payment history (paymentHistory.ts) and delivered
 * issues (deliveredIssues.ts) made alongside. The personas' subscriptions cover every order status
 * (§4), mix and medium type and role (§6): a bundle with a master and components, a gift,
 * auto-renewal, a suspension, holiday redirect / break / download, an externally managed
 * subscription, a multi-licence, a membership; one subscription has more than 25 payments, so
 * paging shows. Other modules add subscriptions with `addSubscription`.
 */
import type {
  HolidayServiceType,
  InvoiceStatusCode,
  PaymentMethodKind,
  Renewal,
  Role,
  SubscriptionDetails,
} from '../../store/rows';
import type { CataloguePublication } from '../catalogue';
import { type SeedContext, type SeedModule, need, translationsOf } from '../context';
import type { DeepPartial } from '../../store/localizedDetails';
import { addDays, addMonths, fromDay } from '../dates';
import { addDeliveredIssues } from './deliveredIssues';
import { addPaymentHistory, type PaymentSeedLine } from './paymentHistory';
import { vatRateFor } from '../../documents/invoiceFigures';
import type { LocalePack } from '../locales';
import { issueNumberAfter, issueSpanBetween, issuesOf } from './publications';
import { paymentMethodFields } from '../../../engine/domain/paymentMethodChange';

export type MixType = 'PR' | 'DE' | 'ON' | 'KO' | 'MG';
export type OrderStatus = 'A' | 'AK' | 'I' | 'IZ' | 'IU';

export interface SubscriptionSeedRow {
  id: string;
  order_number: string;
  publication: string;
  order_status: OrderStatus;
  mix_type: MixType;
  bundle_number: string | null;
  cust_order_date: string;
  valid_from: string;
  valid_to: string | null;
  details: SubscriptionDetails;
}
export interface RoleSeedRow {
  subscription_id: string;
  bp_number: string;
  role: Role;
}

export interface SubscriptionSpec {
  pub: CataloguePublication;
  mix: MixType;
  status: OrderStatus;
  roles: Array<[string, Role]>;
  orderedDaysAgo: number;
  validFrom: number;
  validTo?: number | null;
  bundleNumber?: string;
  payment?: PaymentMethodKind;
  billing?: '01' | '03' | '12';
  details?: SubscriptionDetails;
  /** Payment history: count and the code of entry i (0 = newest). */
  payments?: { count: number; code?: (i: number) => InvoiceStatusCode; lines?: PaymentSeedLine[] };
  deliveredIssues?: number;
}

export interface CreatedSubscription {
  id: string;
  orderNumber: string;
  row: SubscriptionSeedRow;
}

/**
 * The dates of the demo's switch to digital: from in five days for about two weeks, longer when the
 * title appears only later, as long as that stays within the month a download may last (§5).
 */
function downloadDates(ctx: SeedContext, pub: CataloguePublication): { from: string; to: string } {
  const from = addDays(ctx.today, 5);
  const to = fromDay(addDays(ctx.today, 20));
  const first = issuesOf(ctx, pub).find(
    (issue) => issue.date_of_first_sale >= fromDay(from),
  )?.date_of_first_sale;
  return {
    from: fromDay(from),
    to: first && first > to && first <= fromDay(addMonths(from, 1)) ? first : to,
  };
}

/** Subscriptions later modules point at (handed on as ctx.handles.featuredSubscriptions). */
export interface FeaturedSubscriptions {
  /** The main persona's subscription with more than 25 payments. */
  paging: CreatedSubscription;
  /** The third persona's print subscription switched to digital for the holidays. */
  holidayDownload: CreatedSubscription;
  /** The dates of that switch ('YYYY-MM-DD'). */
  holidayDownloadDates: { from: string; to: string };
  /** The shared demo login's subscriptions. */
  demo: CreatedSubscription[];
}

const TYPE_KEYS: Record<MixType, string> = {
  PR: 'PRINT',
  DE: 'DIGITAL',
  ON: 'DIGITAL',
  KO: 'KOMBI',
  MG: 'MEMBERSHIP',
};

/** Monthly price of a mix type for a publication frequency (made-up demo prices). */
export function monthlyPrice(pub: CataloguePublication, mix: MixType): number {
  if (mix === 'MG') return 4.5;
  const table: Record<CataloguePublication['frequency'], Record<Exclude<MixType, 'MG'>, number>> = {
    daily: { PR: 42.9, DE: 27.9, KO: 49.9, ON: 12.9 },
    weekly: { PR: 15.9, DE: 9.9, KO: 19.9, ON: 6.9 },
    sunday: { PR: 12.9, DE: 7.9, KO: 15.9, ON: 5.9 },
    monthly: { PR: 7.5, DE: 4.99, KO: 9.9, ON: 3.99 },
    quarterly: { PR: 4.0, DE: 2.5, KO: 5.0, ON: 2.0 },
    yearly: { PR: 2.5, DE: 1.5, KO: 3.0, ON: 1.0 },
  };
  return table[pub.frequency][mix];
}

const money = (n: number) => Math.round(n * 100) / 100;

type AutoRenewalFields = Pick<
  Renewal,
  | 'autoRenewalNextPaymentDate'
  | 'autoRenewalNextPaymentAmount'
  | 'autoRenewalLastPaymentAmount'
  | 'autoRenewalLastPaymentFrequencyText'
  | 'autoRenewalLastPaymentFrequency'
>;

/**
 * A renewal block, its fields in the order every demo subscription has them (the stored JSON, and
 * so the demo data set, keeps that order).
 */
function renewalOf(
  ctx: SeedContext,
  r: {
    /** Renews automatically, with these payment fields. */
    auto?: AutoRenewalFields;
    expiry?: { desc: string | null; issueNr: string | null };
    /** Paid amounts of the current cycle (left out when missing). */
    paid?: { current: number | null; bundle: number | null };
    offerClassification?: string | null;
    bundleComponent?: 'M' | 'S';
  } = {},
): Renewal {
  return {
    autoRenewal: r.auto !== undefined,
    ...r.auto,
    orderCurrency: ctx.currency,
    expiryDesc: r.expiry?.desc ?? null,
    expiryIssueNr: r.expiry?.issueNr ?? null,
    ...(r.paid && { currentCyclePaidAmount: r.paid.current, currentCycleBundlePaidAmount: r.paid.bundle }),
    offerClassification: r.offerClassification ?? null,
    renewalBundleComponent: r.bundleComponent ?? null,
    maxCycleOfferOfferDescription: ctx.L.texts.maxCycleOffer,
  };
}

function holidayType(
  ctx: SeedContext,
  spec: SubscriptionSpec,
  details: SubscriptionDetails,
): HolidayServiceType | null {
  // Precedence of §4: redirect, then break, then download.
  const recipient = spec.roles.find(([, role]) => role === 'WE')?.[0];
  const physical = spec.mix === 'PR' || spec.mix === 'KO';
  const holidayAddresses =
    ctx.data.businessPartners.find((bp) => bp.bp_number === recipient)?.details.bpHolidayAddress ?? [];
  const redirect =
    physical && recipient !== undefined && holidayAddresses.some((h) => h.validTo > fromDay(ctx.today));
  if (redirect) return 'redirect';
  if (details.currentSuspension?.suspendedToDate) return 'break';
  if (details.currentChangeInfo) return 'download';
  return null;
}

/**
 * The subscription's prose in another language `O` (the tenant's default pack is `L`): what the
 * order system would write there (server/store/localizedDetails.ts).
 */
function subscriptionProse(
  L: LocalePack,
  O: LocalePack,
  spec: SubscriptionSpec,
  d: SubscriptionDetails,
): DeepPartial<SubscriptionDetails> {
  const premium = d.premiumDescription ? L.texts.premiums.indexOf(d.premiumDescription) : -1;
  const billing = d.billingFrequency as keyof LocalePack['texts']['billing'] | null | undefined;
  return {
    displayName:
      spec.mix === 'MG'
        ? O.texts.membershipName(spec.pub.description)
        : `${spec.pub.description} – ${O.texts.mixType[spec.mix]}`,
    ...(d.edition && { edition: O.texts.edition }),
    ...(d.mixTypeDetails && { mixTypeDetails: { mixTypeDesc: O.texts.mixType[spec.mix] } }),
    ...(billing &&
      O.texts.billing[billing] && { billingFrequencyShortDescription: O.texts.billing[billing] }),
    ...(premium >= 0 && { premiumDescription: O.texts.premiums[premium] }),
    ...(d.renewal && {
      renewal: {
        ...(d.renewal.expiryIssueNr &&
          d.renewal.expiryDesc && { expiryDesc: O.texts.expiryDesc(d.renewal.expiryIssueNr) }),
        ...(d.renewal.maxCycleOfferOfferDescription && {
          maxCycleOfferOfferDescription: O.texts.maxCycleOffer,
        }),
        ...(d.renewal.autoRenewalLastPaymentFrequencyText && {
          autoRenewalLastPaymentFrequencyText: O.texts.billing['01'],
        }),
      },
    }),
  };
}

/** Ordering party, recipient and payer in one. */
export const allRoles = (bp: string): Array<[string, Role]> => [
  [bp, 'AG'],
  [bp, 'WE'],
  [bp, 'RE'],
];

export function addSubscription(ctx: SeedContext, spec: SubscriptionSpec): CreatedSubscription {
  const { L, rng, today } = ctx;
  const number = ctx.numbers.order();
  const id = `${spec.pub.clientId}${number}`;
  const price = monthlyPrice(spec.pub, spec.mix);
  const billing = spec.billing ?? '01';
  const cycleMonths = Number(billing);
  const active = spec.status !== 'I';
  const base: SubscriptionDetails = {
    displayName:
      spec.mix === 'MG'
        ? L.texts.membershipName(spec.pub.description)
        : `${spec.pub.description} – ${L.texts.mixType[spec.mix]}`,
    // Type keys as tenants label them (subscriptionModel.typeLabels).
    typeKey: TYPE_KEYS[spec.mix],
    edition: spec.pub.frequency === 'daily' && spec.mix !== 'ON' ? L.texts.edition : null,
    mixTypeDetails: {
      mixTypeDesc: L.texts.mixType[spec.mix],
      mediumType: spec.mix === 'PR' || spec.mix === 'MG' ? null : spec.mix,
      pdfDownload: spec.mix === 'DE' || spec.mix === 'KO',
      complaintIssues: spec.mix === 'PR' || spec.mix === 'KO' ? 3 : 0,
    },
    custOrderNumber: null,
    isRenewal: false,
    isTimebased: spec.mix === 'ON',
    isMultiLicense: false,
    isCombiSubscription: spec.mix === 'KO',
    isCancelable: spec.status === 'A' || spec.status === 'IZ' || spec.status === 'IU',
    ...paymentMethodFields(spec.payment ?? 'direct_debit'),
    billingFrequency: billing,
    billingFrequencyShortDescription: L.texts.billing[billing],
    currentCyclePaidAmount: active ? money(price * cycleMonths) : null,
    currentCycleBundlePaidAmount: null,
    premiumDescription: null,
    salesDocumentType: 'ZABO',
    salesSource: rng.pick(['WEB', 'TEL', 'MAIL', 'PRINT']),
    salesOrganization: '1000',
    prSourceVar: `${spec.pub.publication}-${rng.pick(['SPRING', 'AUTUMN', 'WINTER', 'SUMMER'])}${rng.int(20, 26)}`,
    orderAttributes: [],
    bundles: [],
    currentPhase: null,
    currentChangeInfo: null,
    currentSuspension: null,
    renewal: renewalOf(ctx, { offerClassification: spec.mix === 'MG' ? 'M' : null }),
  };
  const details: SubscriptionDetails = {
    ...base,
    ...spec.details,
    renewal: spec.details?.renewal === undefined ? base.renewal : spec.details.renewal,
  };
  details.activeHolidayServiceType = holidayType(ctx, spec, details);
  const translations = translationsOf(ctx, (O) => subscriptionProse(L, O, spec, details));
  if (translations) details.translations = translations;

  const row: SubscriptionSeedRow = {
    id,
    order_number: number,
    publication: spec.pub.publication,
    order_status: spec.status,
    mix_type: spec.mix,
    bundle_number: spec.bundleNumber ?? null,
    cust_order_date: fromDay(addDays(today, -spec.orderedDaysAgo)),
    valid_from: fromDay(spec.validFrom),
    valid_to: spec.validTo == null ? null : fromDay(spec.validTo),
    details,
  };
  ctx.data.subscriptions.push(row);
  for (const [bp, role] of spec.roles)
    ctx.data.subscriptionRoles.push({ subscription_id: id, bp_number: bp, role });

  // The newest invoice is that of the billing cycle running on the last day served: cycles are
  // counted from the start, so an invoice's service period (server/documents/invoiceFigures.ts) is
  // a cycle of the subscription, not a year from whatever day the seed runs.
  const lastServed = spec.validTo != null && spec.validTo < today ? spec.validTo : today;
  let cycles = 0;
  while (cycleMonths > 0 && addMonths(spec.validFrom, (cycles + 1) * cycleMonths) <= lastServed) cycles += 1;
  const lastDay = spec.validFrom > lastServed ? lastServed : addMonths(spec.validFrom, cycles * cycleMonths);
  addPaymentHistory(ctx, {
    subscriptionId: id,
    count: spec.payments?.count ?? 0,
    code: spec.payments?.code,
    lines: spec.payments?.lines,
    cycleMonths,
    monthlyPrice: price,
    validFrom: spec.validFrom,
    lastDay,
  });
  // An invoice of its own lines (a company's several copies): what this period's invoice says was
  // paid, not one copy's price, so the subscription page and the invoice agree.
  if (spec.payments?.lines && details.currentCyclePaidAmount != null) {
    const newest = ctx.data.paymentHistory.find((payment) => payment.subscription_id === id);
    if (newest)
      details.currentCyclePaidAmount = Number(
        newest.paid_amount ?? (newest.invoice_status_code === 'A' ? newest.amount : 0),
      );
  }
  addDeliveredIssues(ctx, {
    subscriptionId: id,
    pub: spec.pub,
    downloadable: spec.mix === 'DE' || spec.mix === 'KO',
    count: spec.deliveredIssues ?? 0,
    validFrom: spec.validFrom,
    lastDay: lastServed,
  });
  return { id, orderNumber: number, row };
}

/**
 * The lines of the business customer's yearly invoice: five copies of the printed title at its rate
 * (the tenant file's, docs/invoices.md "Invoices and documents": 7 % in Germany, §12 (2) Nr. 1 UStG; 0 % in
 * the UK, zero-rated as a newspaper or periodical) and a webinar pass at the standard rate (19 %
 * in Germany, 20 % in the UK: a live online seminar is a service, no publication).
 */
function businessInvoiceLines(ctx: SeedContext, pub: CataloguePublication): PaymentSeedLine[] {
  const { L, tenant } = ctx;
  const printRate = vatRateFor(tenant.invoice, pub.publication);
  const uk = tenant.invoice?.publisher?.countryCode === 'GB';
  const translated = (text: (pack: LocalePack) => string) => {
    const translations = translationsOf(ctx, (O) => ({ description: text(O) }));
    return { description: text(L), ...(translations ? { translations } : {}) };
  };
  return [
    {
      ...translated((O) => O.texts.invoiceLines.copies(pub.description)),
      quantity: 5,
      unitPrice: money(monthlyPrice(pub, 'PR') * 12).toFixed(2),
      vatCategory: printRate > 0 ? 'S' : 'Z',
      vatRatePercent: printRate,
    },
    {
      ...translated((O) => O.texts.invoiceLines.webinar),
      unitPrice: uk ? '240.00' : '238.00',
      vatCategory: 'S',
      vatRatePercent: uk ? 20 : 19,
    },
  ];
}

/** The personas' subscriptions, then one per publication for the shared demo login. */
function buildSubscriptions(ctx: SeedContext): FeaturedSubscriptions {
  const { L, rng, today, tenant } = ctx;
  const { all: pubs, print: P, otherPrint: P2, digital: D, last: X } = ctx.catalogue;
  const { main, second, third, relative, company, demo } = need(ctx, 'personas');
  const add = (spec: SubscriptionSpec) => addSubscription(ctx, spec);

  // main: auto-renewing print subscription with holiday redirect and > 25 invoices (paging shows).
  const paging = add({
    pub: P,
    mix: 'PR',
    status: 'A',
    roles: allRoles(main.bp),
    orderedDaysAgo: 1_000,
    validFrom: addDays(today, -990),
    payment: 'direct_debit',
    details: {
      orderAttributes: tenant.orderAttributes?.attributes?.length
        ? [{ type: tenant.orderAttributes.attributes[0].type, value: `${rng.digits(4)}-${rng.digits(2)}` }]
        : [{ type: 'DELIVERY_NOTE', value: L.texts.deliveryNote }],
      renewal: renewalOf(ctx, {
        auto: {
          autoRenewalNextPaymentDate: fromDay(addMonths(today, 1)),
          autoRenewalNextPaymentAmount: monthlyPrice(P, 'PR'),
          autoRenewalLastPaymentAmount: monthlyPrice(P, 'PR'),
          autoRenewalLastPaymentFrequencyText: L.texts.billing['01'],
          autoRenewalLastPaymentFrequency: '01',
        },
        paid: { current: monthlyPrice(P, 'PR'), bundle: null },
      }),
    },
    payments: { count: 30, code: (i) => (i === 0 ? 'O' : i === 1 || i === 13 ? 'T' : i === 6 ? 'U' : 'A') },
    deliveredIssues: 30,
  });

  // main: a bundle — combo master (M) with an e-paper and an online component (S), paid yearly on the master.
  const bundle = ctx.numbers.bundle();
  const bundlePaid = money(monthlyPrice(P, 'KO') * 12);
  const bundlePart = (
    pub: CataloguePublication,
    mix: MixType,
    component: 'M' | 'S',
    more: Pick<SubscriptionSpec, 'payments' | 'deliveredIssues'> & { details: SubscriptionDetails },
  ) =>
    add({
      pub,
      mix,
      status: 'A',
      roles: allRoles(main.bp),
      orderedDaysAgo: 400,
      validFrom: addDays(today, -390),
      bundleNumber: bundle,
      payment: 'credit_card',
      billing: '12',
      ...more,
      details: {
        ...more.details,
        renewal: renewalOf(ctx, {
          paid: { current: component === 'M' ? bundlePaid : 0, bundle: bundlePaid },
          bundleComponent: component,
        }),
      },
    });
  const master = bundlePart(P, 'KO', 'M', {
    details: { currentCycleBundlePaidAmount: bundlePaid },
    payments: { count: 2 },
    deliveredIssues: 12,
  });
  const epaper = bundlePart(D, 'DE', 'S', { details: { currentCyclePaidAmount: 0 }, deliveredIssues: 20 });
  const online = bundlePart(D, 'ON', 'S', { details: { currentCyclePaidAmount: 0 } });
  master.row.details.bundles = [
    { bundleOrderNumber: epaper.orderNumber },
    { bundleOrderNumber: online.orderNumber },
  ];

  // main gives second a gift (AG main, WE second); it was cancelled and runs out (AK).
  add({
    pub: P2,
    mix: 'PR',
    status: 'AK',
    roles: [
      [main.bp, 'AG'],
      [main.bp, 'RE'],
      [second.bp, 'WE'],
    ],
    orderedDaysAgo: 300,
    validFrom: addDays(today, -290),
    validTo: addDays(today, 65),
    payment: 'invoice',
    billing: '12',
    details: {
      isCancelable: false,
      premiumDescription: L.texts.premiums[0],
      salesSource: tenant.giftCertificate?.salesSources?.[0] ?? 'GIFT',
    },
    payments: { count: 1 },
    deliveredIssues: 8,
  });

  // second: suspended (IU) with an end date = holiday break, paid with PayPal.
  add({
    pub: P2,
    mix: 'PR',
    status: 'IU',
    roles: allRoles(second.bp),
    orderedDaysAgo: 700,
    validFrom: addDays(today, -690),
    payment: 'paypal',
    details: {
      currentSuspension: {
        suspendedFromDate: fromDay(addDays(today, -9)),
        suspendedToDate: fromDay(addDays(today, 21)),
      },
    },
    payments: { count: 6, code: (i) => (i === 0 ? 'U' : 'A') },
    deliveredIssues: 10,
  });
  // second: ended last year (I).
  add({
    pub: P,
    mix: 'PR',
    status: 'I',
    roles: allRoles(second.bp),
    orderedDaysAgo: 1_500,
    validFrom: addDays(today, -1_490),
    validTo: addDays(today, -200),
    payment: 'direct_debit',
    billing: '03',
    details: { isCancelable: false },
    payments: { count: 4, code: (i) => (i === 0 ? 'O' : 'A') },
    deliveredIssues: 10,
  });
  // second: time-based online trial that starts in two weeks (IZ), can be upgraded after the trial phase.
  add({
    pub: D,
    mix: 'ON',
    status: 'IZ',
    roles: allRoles(second.bp),
    orderedDaysAgo: 3,
    validFrom: addDays(today, 14),
    payment: 'credit_card',
    details: { currentPhase: { canUpgrade: true }, currentCyclePaidAmount: null },
  });
  // second: externally managed renewal subscription (WBZA: cancellation refused with a notice).
  const expiryIssue = issueNumberAfter(ctx, P, addDays(today, 150)) ?? issueNumberAfter(ctx, P, today);
  add({
    pub: P,
    mix: 'PR',
    status: 'A',
    roles: allRoles(second.bp),
    orderedDaysAgo: 200,
    validFrom: addDays(today, -190),
    payment: 'none',
    billing: '12',
    details: {
      salesDocumentType: 'WBZA',
      isRenewal: true,
      renewal: renewalOf(ctx, {
        expiry: { desc: expiryIssue ? L.texts.expiryDesc(expiryIssue) : null, issueNr: expiryIssue },
        paid: { current: money(monthlyPrice(P, 'PR') * 12), bundle: null },
      }),
    },
    payments: { count: 1 },
    deliveredIssues: 6,
  });
  // second pays (RE) the student e-paper of a relative, who is ordering party and recipient.
  add({
    pub: D,
    mix: 'DE',
    status: 'A',
    roles: [
      [relative.bp, 'AG'],
      [relative.bp, 'WE'],
      [second.bp, 'RE'],
    ],
    orderedDaysAgo: 150,
    validFrom: addDays(today, -140),
    payment: 'direct_debit',
    details: {},
    payments: { count: 4, code: (i) => (i === 1 ? 'T' : 'A') },
    deliveredIssues: 10,
  });

  // third: licence manager (LV) of a company multi-licence; the company orders and pays.
  add({
    pub: D,
    mix: 'DE',
    status: 'A',
    roles: [
      [company.bp, 'AG'],
      [company.bp, 'WE'],
      [company.bp, 'RE'],
      [third.bp, 'LV'],
    ],
    orderedDaysAgo: 500,
    validFrom: addDays(today, -480),
    payment: 'invoice',
    billing: '12',
    details: { isMultiLicense: true, custOrderNumber: `PO-${rng.digits(6)}` },
    payments: { count: 2 },
    deliveredIssues: 10,
  });
  // third: a membership (offer classification M).
  add({
    pub: X,
    mix: 'MG',
    status: 'A',
    roles: allRoles(third.bp),
    orderedDaysAgo: 250,
    validFrom: addDays(today, -240),
    payment: 'sepa',
    billing: '12',
    details: { premiumDescription: L.texts.premiums[1] },
    payments: { count: 1 },
  });
  // third: print subscription switched to digital for the holidays (holiday download); its last
  // digital issue is the last one inside its dates, the end date when none appears then.
  const holidayDownloadDates = downloadDates(ctx, P2);
  const holidayDownload = add({
    pub: P2,
    mix: 'PR',
    status: 'A',
    roles: allRoles(third.bp),
    orderedDaysAgo: 120,
    validFrom: addDays(today, -110),
    payment: 'direct_debit',
    details: {
      currentChangeInfo: {
        futureMixTypeToIssueNr:
          issueSpanBetween(ctx, P2, holidayDownloadDates.from, holidayDownloadDates.to).issueNumberTo ??
          holidayDownloadDates.to,
      },
    },
    payments: { count: 3 },
    deliveredIssues: 8,
  });

  // demo@portal.example: one subscription per publication (different in every tenant).
  const demoSubscriptions = pubs.slice(0, 3).map((pub, index) =>
    add({
      pub,
      mix: pub.kind === 'digital' ? 'DE' : 'PR',
      status: index === 1 ? 'AK' : 'A',
      roles: allRoles(demo.bp),
      orderedDaysAgo: 60 + index * 90,
      validFrom: addDays(today, -50 - index * 90),
      validTo: index === 1 ? addDays(today, 40) : null,
      payment: index === 0 ? 'direct_debit' : 'credit_card',
      details: index === 1 ? { isCancelable: false } : {},
      payments: { count: 2 + index },
      deliveredIssues: 5,
    }),
  );
  // Last, so the numbers of everything before stay as they were: the company, a business customer with a login of its own (its procurement mailbox): five
  // copies of the print edition and a webinar pass on one invoice, at two VAT rates (docs/invoices.md
  // "Invoices and documents": a printed paper at the reduced or zero rate, a live online seminar
  // is no publication and bears the standard rate), invoiced yearly; the newest invoice partly paid.
  // Where the tenant offers it, the invoices of both the company's subscriptions come as XRechnung too.
  add({
    pub: P,
    mix: 'PR',
    status: 'A',
    roles: allRoles(company.bp),
    orderedDaysAgo: 420,
    validFrom: addDays(today, -400),
    payment: 'invoice',
    billing: '12',
    details: { custOrderNumber: `PO-${company.bp.slice(-6)}` },
    payments: { count: 2, code: (i) => (i === 0 ? 'T' : 'A'), lines: businessInvoiceLines(ctx, P) },
    deliveredIssues: 6,
  });
  return { paging, holidayDownload, holidayDownloadDates, demo: demoSubscriptions };
}

export const subscriptions: SeedModule = {
  name: 'subscriptions',
  build(ctx) {
    ctx.handles.featuredSubscriptions = buildSubscriptions(ctx);
  },
};
