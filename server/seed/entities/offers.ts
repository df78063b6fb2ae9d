/**
 * Demo data of the cancellation and offer flows (migration 008): cancellation reasons and
 * offers per publication (retention offers, renewals, upgrades now and at the next cycle), voucher
 * codes for cross-selling (one pool exhausted), three more subscriptions of the shared demo login
 * (renewable, renewable through its recipient, cancellable only extraordinarily), and payments in
 * every state. Goes last: it draws from the generator after every other module.
 */
import type { Locale } from '../../../engine/domain/locales';
import type { OfferDefinition, OfferEffect } from '../../store/offerStore';
import type { CataloguePublication } from '../catalogue';
import { type SeedModule, need } from '../context';
import { addDays, fromDay } from '../dates';
import { insertTables } from '../insertRows';
import { firstIssueAfter, lastIssueBy } from './publications';
import { addSubscription, allRoles, monthlyPrice } from './subscriptions';

export interface CancellationReasonSeedRow {
  publication: string;
  code: string;
  position: number;
  descriptions: Partial<Record<Locale, string>>;
}

export interface OfferSeedRow {
  id: string;
  publication: string;
  category: string;
  position: number;
  reasons: string[] | null;
  price: number;
  currency: string;
  payment_provider: 'INVOICE' | 'DIRECT_DEBIT' | 'CREDIT_CARD' | 'PAYPAL';
  offer: OfferDefinition;
  effect: OfferEffect;
  voucher_pool: string | null;
}

export interface VoucherCodeSeedRow {
  pool: string;
  code: string;
  assigned: boolean;
}

/** A demo payment of the shared demo login, with the acceptance it pays for. */
export interface PaymentSeedRow {
  id: string;
  email: string;
  status: 'pending' | 'success' | 'error' | 'canceled';
  method: 'CREDIT_CARD' | 'PAYPAL';
  amount: number;
  currency: string;
  locale: Locale;
  description: string;
  subscription_id: string;
  offer_id: string;
  days_ago: number;
}

export interface OfferData {
  cancellationReasons: CancellationReasonSeedRow[];
  offers: OfferSeedRow[];
  voucherCodes: VoucherCodeSeedRow[];
  payments: PaymentSeedRow[];
}

const REASONS: Array<[string, string, string]> = [
  ['PREIS', 'Das Abonnement ist mir zu teuer.', 'The subscription is too expensive for me.'],
  ['ZEIT', 'Ich habe keine Zeit zum Lesen.', 'I do not have time to read it.'],
  ['UMZUG', 'Ich ziehe um / ins Ausland.', 'I am moving house or abroad.'],
  ['INHALT', 'Die Inhalte interessieren mich nicht mehr.', 'The content no longer interests me.'],
  ['SONST', 'Ein anderer Grund', 'Another reason'],
];

const money = (n: number) => Math.round(n * 100) / 100;
/**
 * A year of the publication's own format (digital for a digital publication, print otherwise) at
 * the subscriptions' monthly price, so an offer's price agrees with its title for the
 * subscriptions it is shown to: "3 months at half price" costs half of three months of theirs.
 */
const yearly = (pub: CataloguePublication) =>
  money(monthlyPrice(pub, pub.kind === 'digital' ? 'DE' : 'PR') * 12);

/**
 * A self-contained picture of the book club (data: URL, like the demo covers): books on a shelf,
 * without words, since the same picture stands beside the title in every language.
 */
const BOOK_CLUB_PICTURE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" viewBox="0 0 200 120"><rect width="200" height="120" fill="#2d6a4f"/>' +
    '<rect x="30" y="22" width="34" height="76" fill="#f4d35e"/><rect x="68" y="30" width="28" height="68" fill="#ee964b"/><rect x="100" y="18" width="38" height="80" fill="#f6f4d2"/>' +
    '<rect x="142" y="34" width="26" height="64" fill="#9ad1d4"/><rect x="20" y="98" width="160" height="6" fill="#1b4332"/></svg>',
)}`;

/** Cross-selling shown after a successful payment. */
const crossSelling = (): NonNullable<OfferDefinition['crossSelling']> => ({
  titles: { 'de-DE': 'Buchklub: das erste Buch gratis', 'en-GB': 'Book club: your first book free' },
  imageUrl: BOOK_CLUB_PICTURE,
  url: 'https://shop.example/book-club',
});

function offersOf(
  pub: CataloguePublication,
  cover: string,
  currency: string,
  renewalCategory: string,
): OfferSeedRow[] {
  const p = pub.publication;
  const price = yearly(pub);
  const rows: OfferSeedRow[] = [];
  const add = (
    row: Omit<OfferSeedRow, 'publication' | 'currency' | 'position' | 'voucher_pool'> & {
      voucher_pool?: string;
    },
  ) => rows.push({ publication: p, currency, position: rows.length, voucher_pool: null, ...row });
  const article = (
    offerType: string,
    texts: OfferDefinition['texts'],
    extra: Partial<OfferDefinition> = {},
  ): OfferDefinition => ({
    kind: 'article',
    texts,
    pictureUrl: null,
    openInNewTab: false,
    offerType,
    ...extra,
  });

  // Retention offers: for the price and time reasons only (the other reasons go straight to the form).
  add({
    id: `${p}-KEEP-HALF`,
    category: 'CANCEL',
    reasons: ['PREIS', 'ZEIT'],
    // What the three discounted months cost, billed by invoice.
    price: money((price / 12) * 3 * 0.5),
    payment_provider: 'INVOICE',
    offer: article('RN', {
      'de-DE': {
        description: 'Bleiben Sie dabei: drei Monate zum halben Preis.',
        title: `${pub.description}: 3 Monate zum halben Preis`,
      },
      'en-GB': {
        description: 'Stay with us: three months at half price.',
        title: `${pub.description}: 3 months at half price`,
      },
    }),
    effect: { kind: 'retain', months: 3, discountPercent: 50 },
  });
  add({
    id: `${p}-KEEP-DIGITAL`,
    category: 'CANCEL',
    reasons: ['PREIS'],
    price: money(price / 3),
    payment_provider: 'CREDIT_CARD',
    offer: article('DD', {
      'de-DE': {
        description: 'Ein Jahr lesen, nur ein Drittel zahlen – einmalig per Karte.',
        title: `${pub.description}: 1 Jahr für ein Drittel`,
      },
      'en-GB': {
        description: 'A year of reading for a third of the price, paid once by card.',
        title: `${pub.description}: a year for a third`,
      },
    }),
    effect: { kind: 'extend', months: 12 },
  });

  // Renewals (the tenant's renewal category).
  add({
    id: `${p}-RENEW-12`,
    category: renewalCategory,
    reasons: null,
    price,
    payment_provider: 'INVOICE',
    offer: article('RN', {
      'de-DE': {
        description: 'Verlängern Sie um 12 Monate, Zahlung per Rechnung.',
        title: `${pub.description}: 12 Monate verlängern`,
      },
      'en-GB': {
        description: 'Renew for 12 months, paid by invoice.',
        title: `${pub.description}: renew for 12 months`,
      },
    }),
    effect: { kind: 'extend', months: 12 },
  });
  add({
    id: `${p}-RENEW-DD`,
    category: renewalCategory,
    reasons: null,
    price,
    payment_provider: 'DIRECT_DEBIT',
    offer: article('RN', {
      'de-DE': {
        description: '12 Monate verlängern, bequem per Lastschrift.',
        title: `${pub.description}: 12 Monate per Lastschrift`,
      },
      'en-GB': {
        description: 'Renew for 12 months by direct debit.',
        title: `${pub.description}: 12 months by direct debit`,
      },
    }),
    effect: { kind: 'extend', months: 12 },
  });
  add({
    id: `${p}-RENEW-BUNDLE`,
    category: renewalCategory,
    reasons: null,
    price: money(price * 1.2),
    payment_provider: 'CREDIT_CARD',
    voucher_pool: 'BOOKCLUB',
    offer: article(
      'BU',
      {
        'de-DE': {
          description: '12 Monate Print und Digital im Paket, per Kreditkarte.',
          title: `${pub.description}: Paket Print + Digital, 12 Monate`,
        },
        'en-GB': {
          description: '12 months of print and digital as a bundle, by card.',
          title: `${pub.description}: print + digital bundle, 12 months`,
        },
      },
      { crossSelling: crossSelling() },
    ),
    // The bundle is what its title says: twelve months of print and digital.
    effect: { kind: 'extend', months: 12, mixType: 'KO', typeKey: 'KOMBI' },
  });
  add({
    id: `${p}-RENEW-24`,
    category: renewalCategory,
    reasons: null,
    price: money(price * 1.8),
    payment_provider: 'PAYPAL',
    voucher_pool: 'SPRING',
    offer: {
      kind: 'product',
      texts: {
        'de-DE': {
          description: 'Zwei Jahre zum Vorteilspreis, mit PayPal.',
          title: `${pub.description}: 24 Monate`,
          detail: 'Sie sparen 10 % gegenüber zwei Einzeljahren.',
        },
        'en-GB': {
          description: 'Two years at a better price, with PayPal.',
          title: `${pub.description}: 24 months`,
          detail: 'You save 10% against two single years.',
        },
      },
      pictureUrl: cover,
      openInNewTab: false,
      crossSelling: crossSelling(),
    },
    effect: { kind: 'extend', months: 24 },
  });

  // Upgrades to print + digital, now (a surcharge by card) or at the next billing cycle (invoice).
  const target = 'KO' as const;
  // A month of print + digital, what the subscription costs once upgraded (named per billing period).
  const printAndDigital = monthlyPrice(pub, target);
  add({
    id: `${p}-UP-NOW`,
    category: 'UPGRD',
    reasons: null,
    price: money(price * 0.1),
    payment_provider: 'CREDIT_CARD',
    offer: {
      kind: 'upgradeOption',
      texts: {
        'de-DE': { description: 'Sofort auf Print + Digital umsteigen.', title: 'Print + Digital ab sofort' },
        'en-GB': {
          description: 'Switch to print + digital straight away.',
          title: 'Print + digital from today',
        },
      },
      pictureUrl: null,
      openInNewTab: false,
      upgradeTime: 'NOW',
      nextPaymentAmount: printAndDigital,
    },
    effect: { kind: 'upgrade', mixType: target, typeKey: 'KOMBI' },
  });
  add({
    id: `${p}-UP-NEXT`,
    category: 'UPGRD',
    reasons: null,
    price: 0,
    payment_provider: 'INVOICE',
    offer: {
      kind: 'upgradeOption',
      texts: {
        'de-DE': {
          description: 'Zum nächsten Abrechnungszeitraum auf Print + Digital umsteigen.',
          title: 'Print + Digital ab dem nächsten Zeitraum',
        },
        'en-GB': {
          description: 'Switch to print + digital from the next billing period.',
          title: 'Print + digital from the next period',
        },
      },
      pictureUrl: null,
      openInNewTab: false,
      upgradeTime: 'NEXT_CYCLE',
      nextPaymentAmount: printAndDigital,
    },
    effect: { kind: 'upgrade', mixType: target, typeKey: 'KOMBI' },
  });
  return rows;
}

export const offers: SeedModule = {
  name: 'offers',
  build(ctx) {
    const { today, tenant, currency } = ctx;
    const { all: pubs, print: P, otherPrint: P2, digital: D } = ctx.catalogue;
    const { demo } = need(ctx, 'personas');
    const data = ctx.data as typeof ctx.data & Partial<OfferData>;
    const renewalCategory = tenant.renewal?.recommendationCategory ?? 'RENEW';
    data.cancellationReasons = [];
    data.offers = [];
    for (const pub of pubs) {
      // A second print title has no reasons: "cancellation not possible" (§8).
      if (pub !== P2 || P2 === P || P2 === D) {
        REASONS.forEach(([code, de, en], position) =>
          data.cancellationReasons!.push({
            publication: pub.publication,
            code,
            position,
            descriptions: { 'de-DE': de, 'en-GB': en },
          }),
        );
      }
      data.offers.push(...offersOf(pub, ctx.catalogue.cover(pub), currency, renewalCategory));
    }
    // BOOKCLUB has codes; SPRING's are all handed out (§8 "voucher codes exhausted: contact phone support").
    data.voucherCodes = [
      ...['BOOK-7Q2M', 'BOOK-3KX9', 'BOOK-P8TW', 'BOOK-Z4RD'].map((code) => ({
        pool: 'BOOKCLUB',
        code,
        assigned: false,
      })),
      ...['SPRING-01', 'SPRING-02'].map((code) => ({ pool: 'SPRING', code, assigned: true })),
    ];

    // The shared demo login's flow subscriptions (created after every other module's rows).
    // Each ends on the day its last issue goes on sale, and names that issue (the end and the last
    // issue of one term agree: they once named the issue after the end).
    // A publication with few issues (a yearbook) may have none between today and the day: the
    // term then ends with its next issue, never with one already past (an active term that ended).
    const lastIssue = (pub: CataloguePublication, endsIn: number) => {
      const last = lastIssueBy(ctx, pub, addDays(today, endsIn));
      return last && last.day > today ? last : firstIssueAfter(ctx, pub, today);
    };
    const termEnd = (pub: CataloguePublication, endsIn: number) =>
      lastIssue(pub, endsIn)?.day ?? addDays(today, endsIn);
    // Without a known last issue the term names none (the screens then show its end date, in their
    // language), rather than "ends with issue —".
    const renewalSpec = (pub: CataloguePublication, endsIn: number) => {
      const last = lastIssue(pub, endsIn);
      return {
        isRenewal: true,
        renewal: {
          autoRenewal: false,
          orderCurrency: currency,
          expiryDesc: last ? ctx.L.texts.expiryDesc(last.issueNumber) : null,
          expiryIssueNr: last?.issueNumber ?? null,
          offerClassification: null,
          renewalBundleComponent: null,
          maxCycleOfferOfferDescription: null,
        },
      };
    };
    const renewable = addSubscription(ctx, {
      pub: P,
      mix: 'PR',
      status: 'A',
      roles: allRoles(demo.bp),
      orderedDaysAgo: 320,
      validFrom: addDays(today, -310),
      validTo: termEnd(P, 45),
      payment: 'invoice',
      billing: '12',
      details: renewalSpec(P, 45),
      payments: { count: 1 },
      deliveredIssues: 4,
    });
    const secondRenewable = addSubscription(ctx, {
      pub: P2,
      mix: 'PR',
      status: 'A',
      roles: allRoles(demo.bp),
      orderedDaysAgo: 300,
      validFrom: addDays(today, -290),
      validTo: termEnd(P2, 75),
      payment: 'direct_debit',
      billing: '12',
      details: renewalSpec(P2, 75),
      payments: { count: 1 },
      deliveredIssues: 3,
    });
    // A minimum term of two years, one year in: only an extraordinary termination is possible (§4).
    addSubscription(ctx, {
      pub: D,
      mix: D.kind === 'digital' ? 'DE' : 'PR',
      status: 'A',
      roles: allRoles(demo.bp),
      orderedDaysAgo: 380,
      validFrom: addDays(today, -370),
      payment: 'credit_card',
      details: { minimumTermEnd: fromDay(addDays(today, 360)) },
      payments: { count: 2 },
      deliveredIssues: 4,
    });

    const login = data.logins.find((l) => l.email === demo.email);
    if (login)
      login.description += `; for the account flows also 2 renewable subscriptions (${P.publication}, ${P2.publication}) and one of ${D.publication} still in its minimum term, with payments in every state`;

    // Payments in every state (§3 pending payment), older than the flows' own.
    const payment = (
      status: PaymentSeedRow['status'],
      offerId: string,
      subscription: { id: string; orderNumber: string },
      daysAgo: number,
      method: PaymentSeedRow['method'],
    ): PaymentSeedRow => {
      const offer = data.offers!.find((o) => o.id === offerId)!;
      return {
        id: `PAY-${ctx.rng.digits(8)}`,
        email: demo.email,
        status,
        method,
        amount: offer.price,
        currency,
        locale: tenant.defaultLocale,
        // The order of the subscription paid for (it once named the first renewable's for all four,
        // which a reopened payment page then showed).
        description: `${subscription.orderNumber}: ${offer.offer.texts[tenant.defaultLocale]?.title ?? offer.id}`,
        subscription_id: subscription.id,
        offer_id: offerId,
        days_ago: daysAgo,
      };
    };
    data.payments = [
      payment('success', `${P.publication}-RENEW-BUNDLE`, renewable, 400, 'CREDIT_CARD'),
      payment('error', `${P.publication}-RENEW-BUNDLE`, renewable, 30, 'CREDIT_CARD'),
      payment('canceled', `${P.publication}-RENEW-24`, renewable, 20, 'PAYPAL'),
      payment('pending', `${P2.publication}-RENEW-24`, secondRenewable, 1, 'PAYPAL'),
    ];
  },
  insert: async (tx, dataSet) => {
    const data = dataSet as typeof dataSet & Partial<OfferData>;
    await insertTables({
      table: 'voucher_codes',
      columns: 'pool text, code text, payment_id text',
      rows: () =>
        (data.voucherCodes ?? []).map((v) => ({
          pool: v.pool,
          code: v.code,
          payment_id: v.assigned ? 'seeded' : null,
        })),
    })(tx, dataSet);
    const payments = JSON.stringify(data.payments ?? []);
    if (!data.payments?.length) return;
    // The seeded payments have no page to pay on: their secret is a random value nobody holds.
    await tx.query(
      `insert into payments (tenant_id, id, user_id, provider, method, amount, currency, status, secret_hash, locale, description, created_at, settled_at)
       select $1, p.id, u.id, 'sandbox', p.method, p.amount, p.currency, p.status, md5(random()::text || p.id), p.locale, p.description,
              now() - make_interval(days => p.days_ago), case when p.status = 'pending' then null else now() - make_interval(days => p.days_ago) end
         from jsonb_to_recordset($2::jsonb) as p(id text, email text, method text, amount numeric, currency text, status text, locale text, description text, days_ago integer)
         join users u on u.tenant_id = $1 and u.email = p.email`,
      [dataSet.tenantId, payments],
    );
    await tx.query(
      `insert into offer_acceptances (tenant_id, subscription_id, offer_id, user_id, source, status, payment_id, created_at, applied_at, paid_amount)
       select $1, p.subscription_id, p.offer_id, u.id, 'renewal',
              case p.status when 'success' then 'applied' when 'pending' then 'pending' else 'failed' end, p.id,
              now() - make_interval(days => p.days_ago), case when p.status = 'success' then now() - make_interval(days => p.days_ago) end,
              p.amount
         from jsonb_to_recordset($2::jsonb) as p(id text, email text, status text, subscription_id text, offer_id text, days_ago integer, amount numeric)
         join users u on u.tenant_id = $1 and u.email = p.email`,
      [dataSet.tenantId, payments],
    );
  },
};
