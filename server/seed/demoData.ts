/**
 * Builds a tenant's demo data set in memory — a pure function of (tenant, today): the same input
 * gives the same rows, ids and logins on every run (seeded Prng, no Math.random, no clock reads).
 * seedDemoData.ts writes it to the database.
 *
 * The set is built so every screen of every demo tenant has something real to show (DESIGN.md
 * "Data and the server"): every order status (§4), mix and medium type, role (§6), a bundle with a
 * master and components, a gift, auto-renewal, a suspension, holiday redirect / break / download,
 * an externally managed subscription, a multi-licence, a membership, purchase orders in every invoice
 * and shipping state with every provider code (§9), pending orders, payment history with every code
 * (one subscription with more than 25 entries, so paging shows) and delivered issues with every
 * download status.
 *
 * Personas (logins, no password: magic link):
 *  - main   (anna.schmidt@<tenant>.example / olivia.turner@…): ordering party of a bundle, a gift, …
 *  - second (max.mueller@… / james.whitfield@…): gift recipient, suspended, inactive, starting soon,
 *           externally managed, invoice recipient only of a relative's subscription
 *  - third  (lena.wagner@… / priya.patel@…): licence manager of a company licence, membership,
 *           holiday download, purchase orders and pending orders
 *  - demo@portal.example: exists in every tenant with that tenant's own, different data.
 * Further subscribers without an account exist to be linked through the link-subscription flow.
 */
import type {
  BusinessPartnerDetails,
  DownloadStatus,
  HolidayServiceType,
  InvoiceStatusCode,
  PackageInfo,
  PaymentMethodKind,
  Role,
  SubscriptionDetails,
} from '../store/rows';
import {
  type CataloguePublication,
  type DemoPublication,
  type IssueSeed,
  cataloguePublications,
  coverImageUrl,
  issueCalendar,
} from './catalogue';
import { addDays, addMonths, dayOf, fromDay } from './dates';
import { type DemoLocale, type LocalePack, type PersonSeed, localePack } from './locales';
import { Prng, hashString } from './prng';

/**
 * What the generator reads of a tenant. A validated tenant (schemas/tenant.schema.json) fits: the
 * optional settings below make the data match the tenant's configuration when present.
 */
export interface DemoTenant {
  id: string;
  defaultLocale: DemoLocale;
  /** The tenant's publications; the known demo tenants' (or codes derived from the id) when missing. */
  publications?: DemoPublication[];
  /** Salutation codes of the tenant; 0001 Ms, 0002 Mr, 0003 company when missing. */
  salutations?: { options?: ReadonlyArray<{ code: string; title?: { 'de-DE'?: string; 'en-GB'?: string }; isCompany?: boolean }> };
  /** The first sales source marks the demo gift subscription (gift-certificate feature). */
  giftCertificate?: { salesSources?: readonly string[] };
  /** The first attribute type is filled in on a demo subscription. */
  orderAttributes?: { attributes?: ReadonlyArray<{ type: string }> };
}

type SalutationKind = 'female' | 'male' | 'company';

/** Salutation code and title for a kind of partner, from the tenant's list when it has one. */
function salutationResolver(tenant: DemoTenant, L: LocalePack) {
  const options = tenant.salutations?.options;
  const defaults: Record<SalutationKind, string> = { female: '0001', male: '0002', company: '0003' };
  const titleWords: Record<Exclude<SalutationKind, 'company'>, string[]> = { female: ['frau', 'ms', 'mrs'], male: ['herr', 'mr'] };
  return (kind: SalutationKind): { code: string | null; title: string | null } => {
    if (!options || options.length === 0) return { code: defaults[kind], title: L.salutations[kind] };
    const option =
      kind === 'company'
        ? options.find((o) => o.isCompany)
        : options.find(
            (o) => !o.isCompany && Object.values(o.title ?? {}).some((t) => titleWords[kind].includes(String(t).toLowerCase())),
          );
    if (!option) return { code: null, title: null };
    return { code: option.code, title: option.title?.[tenant.defaultLocale] ?? option.title?.['en-GB'] ?? option.code };
  };
}

export interface DemoLogin {
  tenantId: string;
  email: string;
  description: string;
}

/** The e-mail that exists in every demo tenant, each time with different data (tenant isolation). */
export const SHARED_DEMO_EMAIL = 'demo@portal.example';

type MixType = 'PR' | 'DE' | 'ON' | 'KO' | 'MG';
type OrderStatus = 'A' | 'AK' | 'I' | 'IZ' | 'IU';

// Rows, keyed by column name, ready for seedDemoData.ts.
export interface UserSeedRow {
  id: string;
  email: string;
  display_name: string;
  first_name: string;
  last_name: string;
}
export interface BusinessPartnerSeedRow {
  bp_number: string;
  salutation_code: string | null;
  first_name: string | null;
  last_name1: string | null;
  company1: string | null;
  street: string;
  street_number: string;
  zipcode: string;
  city: string;
  country_code: string;
  email_address: string | null;
  phone_number: string | null;
  date_of_birth: string | null;
  details: BusinessPartnerDetails;
}
export interface PublicationSeedRow {
  publication: string;
  client_id: string;
  description: string;
  cover_image_url: string;
  current_issue: string | null;
}
export interface IssueSeedRow {
  publication: string;
  issue: string;
  issue_number: string;
  description: string;
  date_of_first_sale: string;
  date_of_first_shipping: string;
}
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
export interface PurchaseOrderSeedRow {
  id: string;
  purchase_order_number: string;
  distribution_article_number: string;
  distribution_article_description: string;
  cover_image_url: string;
  date_of_purchase_order_client: string;
  quantity: number;
  invoice_status: 1 | 2 | 3;
  invoice_number: string;
  download_status: DownloadStatus;
  package_info: PackageInfo;
  details: { purchaseOrderId: string; reason: string | null; invoiceAmount: number };
}
export interface PurchaseOrderRoleSeedRow {
  purchase_order_id: string;
  bp_number: string;
  role: Role;
}
export interface PendingOrderSeedRow {
  id: string;
  bp_number: string;
  source: string;
  title: string;
  order_number: string;
  article_number: string;
  order_date: string;
  cover_image_url: string;
  issue_number_from: string | null;
  download_url: string | null;
  download_is_file: boolean | null;
}
export interface PaymentSeedRow {
  subscription_id: string;
  id: string;
  date: string;
  amount: string;
  currency: string;
  invoice_status_code: InvoiceStatusCode;
  invoice_number: string;
  external_document_number: string;
  document_id: string;
}
export interface DeliveredIssueSeedRow {
  subscription_id: string;
  issue: string;
  issue_number: string;
  description: string;
  date_of_first_sale: string;
  download_status: DownloadStatus;
}

export interface DemoDataSet {
  tenantId: string;
  /** Seed of the tenant's generator (recorded in demo_seeds). */
  seed: number;
  today: string;
  logins: DemoLogin[];
  users: UserSeedRow[];
  /** Which business partners each login speaks for (by e-mail, resolved to user ids on insert). */
  userBusinessPartners: Array<{ email: string; bp_number: string }>;
  businessPartners: BusinessPartnerSeedRow[];
  publications: PublicationSeedRow[];
  issues: IssueSeedRow[];
  subscriptions: SubscriptionSeedRow[];
  subscriptionRoles: RoleSeedRow[];
  purchaseOrders: PurchaseOrderSeedRow[];
  purchaseOrderRoles: PurchaseOrderRoleSeedRow[];
  pendingOrders: PendingOrderSeedRow[];
  paymentHistory: PaymentSeedRow[];
  deliveredIssues: DeliveredIssueSeedRow[];
}

const TYPE_KEYS: Record<MixType, string> = { PR: 'PRINT', DE: 'DIGITAL', ON: 'DIGITAL', KO: 'KOMBI', MG: 'MEMBERSHIP' };

/** Shipping provider codes of portal-core.md §9, each used by some purchase order. */
const PROVIDERS = { postal: '01', dpd: '02', dhl: '07', dhlExpress: '08', gls: '09', pickup: '16', swissPost: '17', freight1: '91', freight2: '92' };

/** The tenant's generator seed: stable per tenant id, fits a signed 32-bit int column. */
export function demoSeedFor(tenantId: string): number {
  return hashString(`demo-data:${tenantId}`) >>> 1;
}

/** Monthly price of a mix type for a publication frequency (made-up demo prices). */
function monthlyPrice(pub: CataloguePublication, mix: MixType): number {
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

function paymentFields(kind: PaymentMethodKind): Pick<SubscriptionDetails, 'paymentMethod' | 'subOProcessedPMD' | 'paymentDetails'> {
  // portal-core.md §9 "Payment method mapping": E direct debit; K credit card; sub payment method
  // 660 PayPal, 000 invoice, other credit card; none invoice.
  switch (kind) {
    case 'direct_debit':
    case 'sepa':
      return { paymentMethod: 'E', subOProcessedPMD: { subPaymentMethod: null }, paymentDetails: { paymentMethod: kind } };
    case 'credit_card':
      return { paymentMethod: 'K', subOProcessedPMD: { subPaymentMethod: '001' }, paymentDetails: { paymentMethod: kind } };
    case 'paypal':
      return { paymentMethod: '', subOProcessedPMD: { subPaymentMethod: '660' }, paymentDetails: { paymentMethod: kind } };
    case 'invoice':
      return { paymentMethod: '', subOProcessedPMD: { subPaymentMethod: '000' }, paymentDetails: { paymentMethod: kind } };
    case 'none':
      return { paymentMethod: '', subOProcessedPMD: { subPaymentMethod: null }, paymentDetails: { paymentMethod: 'invoice' } };
  }
}

interface SubscriptionSpec {
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
  payments?: { count: number; code?: (i: number) => InvoiceStatusCode };
  deliveredIssues?: number;
}

interface CreatedSubscription {
  id: string;
  orderNumber: string;
  row: SubscriptionSeedRow;
}

export function buildDemoData(tenant: DemoTenant, todayDate: Date): DemoDataSet {
  const seed = demoSeedFor(tenant.id);
  const rng = new Prng(seed);
  const L: LocalePack = localePack(tenant.defaultLocale);
  const salutation = salutationResolver(tenant, L);
  const today = dayOf(todayDate);
  const currency = tenant.defaultLocale === 'en-GB' ? 'GBP' : 'EUR';
  const domain = `${tenant.id}.example`;
  const pubs = cataloguePublications(tenant.id, tenant.publications);
  const print = pubs.filter((p) => p.kind === 'print');
  const digital = pubs.filter((p) => p.kind === 'digital');
  const P = print[0] ?? pubs[0];
  const P2 = print[1] ?? P;
  const D = digital[0] ?? P;
  const X = pubs[pubs.length - 1];
  const covers = new Map(pubs.map((p) => [p.publication, coverImageUrl(p)]));
  const cover = (p: CataloguePublication) => covers.get(p.publication) as string;

  const data: DemoDataSet = {
    tenantId: tenant.id,
    seed,
    today: fromDay(today),
    logins: [],
    users: [],
    userBusinessPartners: [],
    businessPartners: [],
    publications: [],
    issues: [],
    subscriptions: [],
    subscriptionRoles: [],
    purchaseOrders: [],
    purchaseOrderRoles: [],
    pendingOrders: [],
    paymentHistory: [],
    deliveredIssues: [],
  };

  // --- number ranges (random start per tenant, strictly increasing, so never duplicated) -------
  let orderNumber = 4_100_000_000 + rng.int(0, 799_999_999);
  const nextOrderNumber = () => String((orderNumber += rng.int(7, 4_000)));
  let bpNumber = rng.int(10_000_000, 80_000_000);
  const nextBpNumber = () => String((bpNumber += rng.int(1, 500))).padStart(10, '0');
  let poNumber = 5_100_000_000 + rng.int(0, 799_999_999);
  const nextPoNumber = () => String((poNumber += rng.int(3, 900)));
  let bundleNumber = 7_100_000_000 + rng.int(0, 799_999_999);
  const nextBundleNumber = () => String((bundleNumber += rng.int(1, 90)));
  let invoiceNumber = 9_100_000_000 + rng.int(0, 799_999_999);
  const nextInvoiceNumber = () => String((invoiceNumber += rng.int(1, 50)));
  let paymentId = rng.int(100_000_000, 900_000_000);
  const nextPaymentId = () => String((paymentId += rng.int(1, 20))).padStart(12, '0');
  let articleNumber = rng.int(100_000, 800_000);
  const nextArticleNumber = () => String((articleNumber += rng.int(1, 300)));

  // --- publications and issues ------------------------------------------------------------------
  const issuesOf = new Map<string, IssueSeed[]>();
  for (const pub of pubs) {
    const issues = issueCalendar(pub, today, L.texts.issueDescription);
    issuesOf.set(pub.publication, issues);
    const current = [...issues].reverse().find((i) => i.dateOfFirstSale <= fromDay(today));
    data.publications.push({
      publication: pub.publication,
      client_id: pub.clientId,
      description: pub.description,
      cover_image_url: cover(pub),
      current_issue: current?.issueNumber ?? null,
    });
    for (const issue of issues) {
      data.issues.push({
        publication: pub.publication,
        issue: issue.issue,
        issue_number: issue.issueNumber,
        description: issue.description,
        date_of_first_sale: issue.dateOfFirstSale,
        date_of_first_shipping: issue.dateOfFirstShipping,
      });
    }
  }
  const issueNumberAfter = (pub: CataloguePublication, day: number): string | null =>
    issuesOf.get(pub.publication)?.find((i) => i.dateOfFirstSale > fromDay(day))?.issueNumber ?? null;

  // --- business partners and logins -------------------------------------------------------------
  const phone = () => `${L.phonePrefix}${rng.digits(3)}`;
  const holidayByBp = new Map<string, Array<{ validFrom: string; validTo: string }>>();

  function addPerson(person: Omit<PersonSeed, 'emailLocal'>, email: string | null, details: BusinessPartnerDetails = {}): string {
    const bp = nextBpNumber();
    data.businessPartners.push({
      bp_number: bp,
      salutation_code: salutation(person.gender).code,
      first_name: person.firstName,
      last_name1: person.lastName,
      company1: null,
      street: person.street,
      street_number: person.streetNumber,
      zipcode: person.zipcode,
      city: person.city,
      country_code: L.countryCode,
      email_address: email,
      phone_number: phone(),
      date_of_birth: person.dateOfBirth,
      details: {
        salutation: salutation(person.gender).title,
        listOfCommunication: email ? [{ communicationType: 'WW', communicationDefault: true, communicationValue: email }] : [],
        status: 'active',
        confirmed: true,
        ...details,
      },
    });
    if (details.bpHolidayAddress) holidayByBp.set(bp, details.bpHolidayAddress);
    return bp;
  }

  function addLogin(person: PersonSeed, email: string, bps: string[]): void {
    data.users.push({
      id: rng.uuid(),
      email,
      display_name: `${person.firstName} ${person.lastName}`,
      first_name: person.firstName,
      last_name: person.lastName,
    });
    for (const bp of bps) data.userBusinessPartners.push({ email, bp_number: bp });
  }

  const mainEmail = `${L.main.emailLocal}@${domain}`;
  const secondEmail = `${L.second.emailLocal}@${domain}`;
  const thirdEmail = `${L.third.emailLocal}@${domain}`;

  // Holiday redirect (§4): the main persona is away, a holiday address valid until after today.
  const mainBp = addPerson(L.main, mainEmail, {
    bpHolidayAddress: [
      {
        validFrom: fromDay(addDays(today, -4)),
        validTo: fromDay(addDays(today, 10)),
        street: L.holidayAddress.street,
        streetNumber: L.holidayAddress.streetNumber,
        zipcode: L.holidayAddress.zipcode,
        city: L.holidayAddress.city,
        countryCode: L.countryCode,
      },
    ],
  });
  const secondBp = addPerson(L.second, secondEmail);
  const thirdBp = addPerson(L.third, thirdEmail, { jobTitle: null });
  const relativeBp = addPerson(L.relative, null, { academicYear: fromDay(today).slice(0, 4) });
  const companyBp = nextBpNumber();
  data.businessPartners.push({
    bp_number: companyBp,
    salutation_code: salutation('company').code,
    first_name: null,
    last_name1: null,
    company1: L.company.company,
    street: L.company.street,
    street_number: L.company.streetNumber,
    zipcode: L.company.zipcode,
    city: L.company.city,
    country_code: L.countryCode,
    email_address: `procurement@${domain}`,
    phone_number: phone(),
    date_of_birth: null,
    details: {
      salutation: salutation('company').title,
      department: L.company.department,
      addressLine1: `${L.third.firstName} ${L.third.lastName}`,
      listOfCommunication: [{ communicationType: 'WW', communicationDefault: true, communicationValue: `procurement@${domain}` }],
      status: 'active',
      confirmed: true,
    },
  });
  const demoBp = addPerson(L.demo, SHARED_DEMO_EMAIL);

  addLogin(L.main, mainEmail, [mainBp]);
  addLogin(L.second, secondEmail, [secondBp]);
  addLogin(L.third, thirdEmail, [thirdBp]);
  addLogin(L.demo, SHARED_DEMO_EMAIL, [demoBp]);

  // --- subscriptions ------------------------------------------------------------------------------
  function holidayType(spec: SubscriptionSpec, details: SubscriptionDetails): HolidayServiceType | null {
    // Precedence of §4: redirect, then break, then download.
    const recipient = spec.roles.find(([, role]) => role === 'WE')?.[0];
    const physical = spec.mix === 'PR' || spec.mix === 'KO';
    const redirect =
      physical && recipient !== undefined && (holidayByBp.get(recipient) ?? []).some((h) => h.validTo > fromDay(today));
    if (redirect) return 'redirect';
    if (details.currentSuspension?.suspendedToDate) return 'break';
    if (details.currentChangeInfo) return 'download';
    return null;
  }

  function addSubscription(spec: SubscriptionSpec): CreatedSubscription {
    const number = nextOrderNumber();
    const id = `${spec.pub.clientId}${number}`;
    const price = monthlyPrice(spec.pub, spec.mix);
    const billing = spec.billing ?? '01';
    const cycleMonths = Number(billing);
    const active = spec.status !== 'I';
    const base: SubscriptionDetails = {
      displayName:
        spec.mix === 'MG' ? L.texts.membershipName(spec.pub.description) : `${spec.pub.description} – ${L.texts.mixType[spec.mix]}`,
      // Type keys as tenants label them (subscriptionModel.typeLabels).
      typeKey: TYPE_KEYS[spec.mix],
      edition: spec.pub.frequency === 'daily' && spec.mix !== 'ON' ? L.texts.edition : null,
      mixTypeDetails: {
        mixTypeDesc: L.texts.mixType[spec.mix],
        mediumType: spec.mix === 'PR' || spec.mix === 'MG' ? null : spec.mix,
        pdfDownload: spec.mix === 'DE' || spec.mix === 'KO',
        complaintIssues: spec.mix === 'PR' || spec.mix === 'KO',
      },
      custOrderNumber: null,
      isRenewal: false,
      isTimebased: spec.mix === 'ON',
      isMultiLicense: false,
      isCombiSubscription: spec.mix === 'KO',
      isCancelable: spec.status === 'A' || spec.status === 'IZ' || spec.status === 'IU',
      ...paymentFields(spec.payment ?? 'direct_debit'),
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
      renewal: {
        autoRenewal: false,
        orderCurrency: currency,
        expiryDesc: null,
        expiryIssueNr: null,
        offerClassification: spec.mix === 'MG' ? 'M' : null,
        renewalBundleComponent: null,
        maxCycleOfferOfferDescription: L.texts.maxCycleOffer,
      },
    };
    const details: SubscriptionDetails = {
      ...base,
      ...spec.details,
      renewal: spec.details?.renewal === undefined ? base.renewal : spec.details.renewal,
    };
    details.activeHolidayServiceType = holidayType(spec, details);

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
    data.subscriptions.push(row);
    for (const [bp, role] of spec.roles) data.subscriptionRoles.push({ subscription_id: id, bp_number: bp, role });

    // Payment history, newest first, one entry per billing cycle.
    const payments = spec.payments?.count ?? 0;
    const lastDay = spec.validTo != null && spec.validTo < today ? spec.validTo : today;
    for (let i = 0; i < payments; i++) {
      const date = addMonths(lastDay, -i * cycleMonths);
      if (date < spec.validFrom) break;
      const code = spec.payments?.code?.(i) ?? 'A';
      const invoice = nextInvoiceNumber();
      const year = fromDay(date).slice(0, 4);
      data.paymentHistory.push({
        subscription_id: id,
        id: nextPaymentId(),
        date: fromDay(date),
        amount: (price * cycleMonths).toFixed(2),
        currency,
        invoice_status_code: code,
        invoice_number: invoice,
        external_document_number: `RE${year}-${invoice.slice(-6)}`,
        document_id: `DOC-${invoice}`,
      });
    }

    // Delivered issues: the latest issues between valid-from and today (or valid-to).
    const delivered = spec.deliveredIssues ?? 0;
    if (delivered > 0) {
      const window = (issuesOf.get(spec.pub.publication) ?? []).filter(
        (i) => i.dateOfFirstSale >= fromDay(spec.validFrom) && i.dateOfFirstSale <= fromDay(lastDay),
      );
      const latest = window.slice(-delivered).reverse();
      latest.forEach((issue, index) => {
        let status: DownloadStatus = 'not_supported';
        if (spec.mix === 'DE' || spec.mix === 'KO') {
          // The oldest downloads have left the download window; one file is missing, one unknown.
          status = index >= latest.length - 3 ? 'expired' : index === 2 ? 'not_found' : index === 4 ? 'unknown' : 'found';
        }
        data.deliveredIssues.push({
          subscription_id: id,
          issue: issue.issue,
          issue_number: issue.issueNumber,
          description: issue.description,
          date_of_first_sale: issue.dateOfFirstSale,
          download_status: status,
        });
      });
    }
    return { id, orderNumber: number, row };
  }

  const M = (bp: string): Array<[string, Role]> => [
    [bp, 'AG'],
    [bp, 'WE'],
    [bp, 'RE'],
  ];

  // main: auto-renewing print subscription with holiday redirect and > 25 invoices (paging shows).
  const s1 = addSubscription({
    pub: P,
    mix: 'PR',
    status: 'A',
    roles: M(mainBp),
    orderedDaysAgo: 1_000,
    validFrom: addDays(today, -990),
    payment: 'direct_debit',
    details: {
      orderAttributes: tenant.orderAttributes?.attributes?.length
        ? [{ type: tenant.orderAttributes.attributes[0].type, value: `${rng.digits(4)}-${rng.digits(2)}` }]
        : [{ type: 'DELIVERY_NOTE', value: L.texts.deliveryNote }],
      renewal: {
        autoRenewal: true,
        autoRenewalNextPaymentDate: fromDay(addMonths(today, 1)),
        autoRenewalNextPaymentAmount: monthlyPrice(P, 'PR'),
        autoRenewalLastPaymentAmount: monthlyPrice(P, 'PR'),
        autoRenewalLastPaymentFrequencyText: L.texts.billing['01'],
        orderCurrency: currency,
        expiryDesc: null,
        expiryIssueNr: null,
        currentCyclePaidAmount: monthlyPrice(P, 'PR'),
        currentCycleBundlePaidAmount: null,
        offerClassification: null,
        renewalBundleComponent: null,
        maxCycleOfferOfferDescription: L.texts.maxCycleOffer,
      },
    },
    payments: { count: 30, code: (i) => (i === 0 ? 'O' : i === 1 || i === 13 ? 'T' : i === 6 ? 'U' : 'A') },
    deliveredIssues: 30,
  });

  // main: a bundle — combo master (M) with an e-paper and an online component (S).
  const bundle = nextBundleNumber();
  const bundleRenewal = (component: 'M' | 'S') => ({
    autoRenewal: false,
    orderCurrency: currency,
    expiryDesc: null,
    expiryIssueNr: null,
    currentCyclePaidAmount: component === 'M' ? money(monthlyPrice(P, 'KO') * 12) : 0,
    currentCycleBundlePaidAmount: money(monthlyPrice(P, 'KO') * 12),
    offerClassification: null,
    renewalBundleComponent: component,
    maxCycleOfferOfferDescription: L.texts.maxCycleOffer,
  });
  const s2 = addSubscription({
    pub: P,
    mix: 'KO',
    status: 'A',
    roles: M(mainBp),
    orderedDaysAgo: 400,
    validFrom: addDays(today, -390),
    bundleNumber: bundle,
    payment: 'credit_card',
    billing: '12',
    details: { currentCycleBundlePaidAmount: money(monthlyPrice(P, 'KO') * 12), renewal: bundleRenewal('M') },
    payments: { count: 2 },
    deliveredIssues: 12,
  });
  const s3 = addSubscription({
    pub: D,
    mix: 'DE',
    status: 'A',
    roles: M(mainBp),
    orderedDaysAgo: 400,
    validFrom: addDays(today, -390),
    bundleNumber: bundle,
    payment: 'credit_card',
    billing: '12',
    details: { currentCyclePaidAmount: 0, renewal: bundleRenewal('S') },
    deliveredIssues: 20,
  });
  const s3b = addSubscription({
    pub: D,
    mix: 'ON',
    status: 'A',
    roles: M(mainBp),
    orderedDaysAgo: 400,
    validFrom: addDays(today, -390),
    bundleNumber: bundle,
    payment: 'credit_card',
    billing: '12',
    details: { currentCyclePaidAmount: 0, renewal: bundleRenewal('S') },
  });
  s2.row.details.bundles = [{ bundleOrderNumber: s3.orderNumber }, { bundleOrderNumber: s3b.orderNumber }];

  // main gives second a gift (AG main, WE second); it was cancelled and runs out (AK).
  addSubscription({
    pub: P2,
    mix: 'PR',
    status: 'AK',
    roles: [
      [mainBp, 'AG'],
      [mainBp, 'RE'],
      [secondBp, 'WE'],
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
  addSubscription({
    pub: P2,
    mix: 'PR',
    status: 'IU',
    roles: M(secondBp),
    orderedDaysAgo: 700,
    validFrom: addDays(today, -690),
    payment: 'paypal',
    details: {
      currentSuspension: { suspendedFromDate: fromDay(addDays(today, -9)), suspendedToDate: fromDay(addDays(today, 21)) },
    },
    payments: { count: 6, code: (i) => (i === 0 ? 'U' : 'A') },
    deliveredIssues: 10,
  });
  // second: ended last year (I).
  addSubscription({
    pub: P,
    mix: 'PR',
    status: 'I',
    roles: M(secondBp),
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
  addSubscription({
    pub: D,
    mix: 'ON',
    status: 'IZ',
    roles: M(secondBp),
    orderedDaysAgo: 3,
    validFrom: addDays(today, 14),
    payment: 'credit_card',
    details: { currentPhase: { canUpgrade: true }, currentCyclePaidAmount: null },
  });
  // second: externally managed renewal subscription (WBZA: cancellation refused with a notice).
  const expiryIssue = issueNumberAfter(P, addDays(today, 150)) ?? issueNumberAfter(P, today);
  addSubscription({
    pub: P,
    mix: 'PR',
    status: 'A',
    roles: M(secondBp),
    orderedDaysAgo: 200,
    validFrom: addDays(today, -190),
    payment: 'none',
    billing: '12',
    details: {
      salesDocumentType: 'WBZA',
      isRenewal: true,
      renewal: {
        autoRenewal: false,
        orderCurrency: currency,
        expiryDesc: expiryIssue ? L.texts.expiryDesc(expiryIssue) : null,
        expiryIssueNr: expiryIssue,
        currentCyclePaidAmount: money(monthlyPrice(P, 'PR') * 12),
        currentCycleBundlePaidAmount: null,
        offerClassification: null,
        renewalBundleComponent: null,
        maxCycleOfferOfferDescription: L.texts.maxCycleOffer,
      },
    },
    payments: { count: 1 },
    deliveredIssues: 6,
  });
  // second pays (RE) the student e-paper of a relative, who is ordering party and recipient.
  addSubscription({
    pub: D,
    mix: 'DE',
    status: 'A',
    roles: [
      [relativeBp, 'AG'],
      [relativeBp, 'WE'],
      [secondBp, 'RE'],
    ],
    orderedDaysAgo: 150,
    validFrom: addDays(today, -140),
    payment: 'direct_debit',
    details: {},
    payments: { count: 4, code: (i) => (i === 1 ? 'T' : 'A') },
    deliveredIssues: 10,
  });

  // third: licence manager (LV) of a company multi-licence; the company orders and pays.
  addSubscription({
    pub: D,
    mix: 'DE',
    status: 'A',
    roles: [
      [companyBp, 'AG'],
      [companyBp, 'WE'],
      [companyBp, 'RE'],
      [thirdBp, 'LV'],
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
  addSubscription({
    pub: X,
    mix: 'MG',
    status: 'A',
    roles: M(thirdBp),
    orderedDaysAgo: 250,
    validFrom: addDays(today, -240),
    payment: 'sepa',
    billing: '12',
    details: { premiumDescription: L.texts.premiums[1] },
    payments: { count: 1 },
  });
  // third: print subscription switched to digital for the holidays (holiday download).
  const switched = addSubscription({
    pub: P2,
    mix: 'PR',
    status: 'A',
    roles: M(thirdBp),
    orderedDaysAgo: 120,
    validFrom: addDays(today, -110),
    payment: 'direct_debit',
    details: {
      currentChangeInfo: { futureMixTypeToIssueNr: issueNumberAfter(P2, addDays(today, 20)) ?? '1/2099' },
    },
    payments: { count: 3 },
    deliveredIssues: 8,
  });

  // demo@portal.example: one subscription per publication (different in every tenant).
  const demoSubscriptions: CreatedSubscription[] = pubs.slice(0, 3).map((pub, index) =>
    addSubscription({
      pub,
      mix: pub.kind === 'digital' ? 'DE' : 'PR',
      status: index === 1 ? 'AK' : 'A',
      roles: M(demoBp),
      orderedDaysAgo: 60 + index * 90,
      validFrom: addDays(today, -50 - index * 90),
      validTo: index === 1 ? addDays(today, 40) : null,
      payment: index === 0 ? 'direct_debit' : 'credit_card',
      details: index === 1 ? { isCancelable: false } : {},
      payments: { count: 2 + index },
      deliveredIssues: 5,
    }),
  );

  // Subscribers without an account, to be linked with order number, last name and zip code.
  const fillerStatuses: OrderStatus[] = ['A', 'A', 'AK', 'I', 'IU', 'A'];
  for (let i = 0; i < fillerStatuses.length; i++) {
    const female = rng.chance(0.5);
    const place = rng.pick(L.places);
    const bp = addPerson(
      {
        gender: female ? 'female' : 'male',
        firstName: rng.pick(female ? L.femaleFirstNames : L.maleFirstNames),
        lastName: rng.pick(L.lastNames),
        street: rng.pick(L.streets),
        streetNumber: String(rng.int(1, 120)),
        zipcode: place.zipcode,
        city: place.city,
        dateOfBirth: fromDay(addDays(today, -rng.int(20 * 365, 80 * 365))),
      },
      null,
    );
    const pub = rng.pick(pubs);
    const status = fillerStatuses[i];
    const startedDaysAgo = rng.int(60, 1_200);
    addSubscription({
      pub,
      mix: pub.kind === 'digital' ? 'DE' : 'PR',
      status,
      roles: M(bp),
      orderedDaysAgo: startedDaysAgo + 10,
      validFrom: addDays(today, -startedDaysAgo),
      validTo: status === 'I' ? addDays(today, -rng.int(5, 50)) : status === 'AK' ? addDays(today, rng.int(10, 90)) : null,
      details:
        status === 'IU'
          ? { currentSuspension: { suspendedFromDate: fromDay(addDays(today, -rng.int(1, 20))), suspendedToDate: null } }
          : status === 'A'
            ? {}
            : { isCancelable: false },
      payments: { count: 3 },
      deliveredIssues: 4,
    });
  }

  // --- purchase orders (single purchases) -------------------------------------------------------
  const consignment = (provider: string): string | null => {
    switch (provider) {
      case PROVIDERS.dhl:
        return `00340434${rng.digits(12)}`;
      case PROVIDERS.dhlExpress:
        return rng.digits(10);
      case PROVIDERS.dpd:
        return `0${rng.digits(13)}`;
      case PROVIDERS.gls:
        return rng.digits(11);
      case PROVIDERS.postal:
        return `RR${rng.digits(9)}${L.countryCode}`;
      case PROVIDERS.swissPost:
        return `99.00.${rng.digits(6)}.${rng.digits(8)}`;
      case PROVIDERS.freight1:
      case PROVIDERS.freight2:
        return `SP${rng.digits(8)}`;
      default:
        return null; // self pickup
    }
  };
  let articleIndex = 0;
  function addPurchaseOrder(spec: {
    roles: Array<[string, Role]>;
    daysAgo: number;
    invoiceStatus: 1 | 2 | 3;
    provider: string;
    shipped: boolean;
    download: DownloadStatus;
    quantity?: number;
    reason?: string | null;
  }): void {
    const number = nextPoNumber();
    const id = `${P.clientId}${number}`;
    const article = L.texts.articles[articleIndex++ % L.texts.articles.length];
    const ordered = addDays(today, -spec.daysAgo);
    data.purchaseOrders.push({
      id,
      purchase_order_number: number,
      distribution_article_number: nextArticleNumber(),
      distribution_article_description: article,
      cover_image_url: cover(pubs[articleIndex % pubs.length]),
      date_of_purchase_order_client: fromDay(ordered),
      quantity: spec.quantity ?? 1,
      invoice_status: spec.invoiceStatus,
      invoice_number: nextInvoiceNumber(),
      download_status: spec.download,
      package_info: {
        scanStatus: spec.shipped ? '90' : '',
        versWeg: spec.provider,
        consignmentNumber: spec.shipped ? consignment(spec.provider) : null,
        deliveryDate: spec.shipped ? fromDay(addDays(ordered, rng.int(2, 6))) : null,
      },
      // A replacement delivery (with a reason) is free: its invoice request is not_relevant (§4).
      details: { purchaseOrderId: number, reason: spec.reason ?? null, invoiceAmount: spec.reason ? 0 : Number(((spec.quantity ?? 1) * 14.9).toFixed(2)) },
    });
    for (const [bp, role] of spec.roles) data.purchaseOrderRoles.push({ purchase_order_id: id, bp_number: bp, role });
  }
  // Every invoice state (1 open, 2 paid, 3 overpaid), shipping state (pending / 90 shipped) and provider code.
  addPurchaseOrder({ roles: M(thirdBp), daysAgo: 2, invoiceStatus: 1, provider: PROVIDERS.postal, shipped: false, download: 'not_supported' });
  addPurchaseOrder({ roles: M(thirdBp), daysAgo: 25, invoiceStatus: 2, provider: PROVIDERS.dhl, shipped: true, download: 'found' });
  addPurchaseOrder({ roles: M(thirdBp), daysAgo: 40, invoiceStatus: 3, provider: PROVIDERS.dpd, shipped: true, download: 'not_found' });
  addPurchaseOrder({ roles: M(thirdBp), daysAgo: 70, invoiceStatus: 2, provider: PROVIDERS.gls, shipped: true, download: 'expired', quantity: 3 });
  addPurchaseOrder({ roles: M(thirdBp), daysAgo: 95, invoiceStatus: 2, provider: PROVIDERS.dhlExpress, shipped: true, download: 'unknown' });
  addPurchaseOrder({
    roles: [
      [companyBp, 'AG'],
      [companyBp, 'RE'],
      [thirdBp, 'WE'],
    ],
    daysAgo: 5,
    invoiceStatus: 1,
    provider: PROVIDERS.pickup,
    shipped: false,
    download: 'not_supported',
  });
  addPurchaseOrder({ roles: M(thirdBp), daysAgo: 130, invoiceStatus: 2, provider: PROVIDERS.swissPost, shipped: true, download: 'not_supported', reason: L.texts.reasonReplacement });
  addPurchaseOrder({ roles: M(thirdBp), daysAgo: 160, invoiceStatus: 2, provider: PROVIDERS.freight1, shipped: true, download: 'not_supported', quantity: 2 });
  addPurchaseOrder({ roles: M(mainBp), daysAgo: 33, invoiceStatus: 2, provider: PROVIDERS.postal, shipped: true, download: 'found' });
  addPurchaseOrder({ roles: M(demoBp), daysAgo: 12, invoiceStatus: 2, provider: PROVIDERS.freight2, shipped: true, download: 'not_supported' });

  // --- pending orders ----------------------------------------------------------------------------
  let pendingIndex = 0;
  function addPending(spec: {
    bp: string;
    source: string;
    title: string;
    pub: CataloguePublication;
    orderNumber?: string;
    daysAgo: number;
    download?: { url: string; isFile: boolean };
  }): void {
    pendingIndex++;
    data.pendingOrders.push({
      id: `PND${String(pendingIndex).padStart(3, '0')}${rng.digits(6)}`,
      bp_number: spec.bp,
      source: spec.source,
      title: spec.title,
      order_number: spec.orderNumber ?? nextOrderNumber(),
      article_number: nextArticleNumber(),
      order_date: fromDay(addDays(today, -spec.daysAgo)),
      cover_image_url: cover(spec.pub),
      issue_number_from: issueNumberAfter(spec.pub, addDays(today, 7)),
      download_url: spec.download?.url ?? null,
      download_is_file: spec.download?.isFile ?? null,
    });
  }
  addPending({ bp: thirdBp, source: 'VHS', title: L.texts.trialTitle(P.description), pub: P, daysAgo: 1 });
  addPending({
    bp: thirdBp,
    source: 'SHOP',
    title: L.texts.articles[1],
    pub: X,
    daysAgo: 3,
    download: { url: `/demo-files/${tenant.id}/${L.texts.articles[1].toLowerCase().replace(/[^a-z0-9]+/g, '-')}.pdf`, isFile: true },
  });
  // Duplicates an order the subscriptions already show: the orders page drops it (§7 GET /pending-orders).
  addPending({ bp: thirdBp, source: 'VHS', title: `${P2.description}`, pub: P2, orderNumber: switched.orderNumber, daysAgo: 110 });
  addPending({ bp: mainBp, source: 'VHS', title: L.texts.upgradeTitle(D.description), pub: D, daysAgo: 2 });

  // --- logins ------------------------------------------------------------------------------------
  const subscriptionsOf = (bp: string) =>
    new Set(data.subscriptionRoles.filter((r) => r.bp_number === bp).map((r) => r.subscription_id)).size;
  const purchaseOrdersOf = (bp: string) =>
    new Set(data.purchaseOrderRoles.filter((r) => r.bp_number === bp).map((r) => r.purchase_order_id)).size;
  const pendingOf = (bp: string) => data.pendingOrders.filter((p) => p.bp_number === bp).length;
  const name = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

  data.logins = [
    {
      tenantId: tenant.id,
      email: mainEmail,
      description:
        `${name(L.main)}: ordering party, ${subscriptionsOf(mainBp)} subscriptions incl. a bundle (master + 2 components), ` +
        `a gift for ${name(L.second)} (cancelled), auto-renewal, holiday redirect, ` +
        `${data.paymentHistory.filter((p) => p.subscription_id === s1.id).length} invoices (paging); ` +
        `${purchaseOrdersOf(mainBp)} purchase order, ${pendingOf(mainBp)} pending order`,
    },
    {
      tenantId: tenant.id,
      email: secondEmail,
      description:
        `${name(L.second)}: ${subscriptionsOf(secondBp)} subscriptions — gift recipient (WE) of ${name(L.main)}'s gift, ` +
        `suspended (IU, holiday break), inactive (I), online trial starting soon (IZ, phase upgrade), ` +
        `externally managed renewal (WBZA), invoice recipient (RE) only of ${name(L.relative)}'s e-paper`,
    },
    {
      tenantId: tenant.id,
      email: thirdEmail,
      description:
        `${name(L.third)}: licence manager (LV) of ${L.company.company}'s multi-licence, membership, ` +
        `holiday download (planned switch to digital); ${purchaseOrdersOf(thirdBp)} purchase orders in every invoice ` +
        `and shipping state; ${pendingOf(thirdBp)} pending orders (VHS and shop)`,
    },
    {
      tenantId: tenant.id,
      email: SHARED_DEMO_EMAIL,
      description:
        `${name(L.demo)}: same e-mail in every demo tenant with different data — here ${demoSubscriptions.length} ` +
        `subscription(s) of ${pubs
          .slice(0, 3)
          .map((p) => p.publication)
          .join(', ')} and ${purchaseOrdersOf(demoBp)} purchase order`,
    },
  ];
  return data;
}
