/**
 * What every seed module (seedModules.ts) builds from: the tenant, its locale pack, the tenant's
 * seeded generator, the number ranges, the reference day and the rows the modules before it built.
 *
 * All modules draw from the one generator in list order, so the data set stays a pure function of
 * (tenant, today).
 */
import type { Queryable } from '../db/database';
import {
  type CataloguePublication,
  type DemoPublication,
  cataloguePublications,
  coverImageUrl,
} from './catalogue';
import { dayOf, fromDay } from './dates';
import type { BusinessPartnerSeedRow, Personas } from './entities/businessPartners';
import type { DeliveredIssueSeedRow } from './entities/deliveredIssues';
import type { DemoLogin } from './entities/logins';
import type { PaymentSeedRow } from './entities/paymentHistory';
import type { InvoiceConfig } from '../../schemas/generated/tenant';
import type { PendingOrderSeedRow } from './entities/pendingOrders';
import type { IssueSeedRow, PublicationSeedRow } from './entities/publications';
import type { PurchaseOrderRoleSeedRow, PurchaseOrderSeedRow } from './entities/purchaseOrders';
import type { FeaturedSubscriptions, RoleSeedRow, SubscriptionSeedRow } from './entities/subscriptions';
import type { UserSeedRow } from './entities/users';
import { type DemoLocale, type LocalePack, isDemoLocale, localePack } from './locales';
import { Prng, hashString } from './prng';

/**
 * What the generator reads of a tenant. A validated tenant (schemas/tenant.schema.json) fits: the
 * optional settings below make the data match the tenant's configuration when present.
 */
export interface DemoTenant {
  id: string;
  defaultLocale: DemoLocale;
  /** The tenant's languages; the demo prose is written in each of them, so no screen mixes two languages. */
  locales?: readonly string[];
  /** The tenant's publications; the known demo tenants' (or codes derived from the id) when missing. */
  publications?: DemoPublication[];
  /** Salutation codes of the tenant; 0001 Ms, 0002 Mr, 0003 company when missing. */
  salutations?: {
    options?: ReadonlyArray<{
      code: string;
      title?: { 'de-DE'?: string; 'en-GB'?: string };
      isCompany?: boolean;
    }>;
  };
  /** The first sales source marks the demo gift subscription (gift-certificate feature). */
  giftCertificate?: { salesSources?: readonly string[] };
  /** The first attribute type is filled in on a demo subscription. */
  orderAttributes?: { attributes?: ReadonlyArray<{ type: string }> };
  /** The renewal offers' category (offers.ts); RENEW when missing. */
  renewal?: { recommendationCategory?: string };
  /** The invoice settings: the VAT rates of the business customer's invoice lines (entities/subscriptions.ts). */
  invoice?: Pick<InvoiceConfig, 'vatRatePercent' | 'vatRatePercentByPublication'> & {
    publisher?: { countryCode?: string };
  };
}

/** A tenant's demo rows, keyed by column name, as the seed modules insert them. */
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

/** The tenant's publications and the ones the demo stories are told with. */
export interface Catalogue {
  all: CataloguePublication[];
  /** First print title (the main persona's newspaper), or the first title. */
  print: CataloguePublication;
  /** Second print title, or `print`. */
  otherPrint: CataloguePublication;
  /** First digital title, or `print`. */
  digital: CataloguePublication;
  /** Last title (the membership's). */
  last: CataloguePublication;
  cover(pub: CataloguePublication): string;
}

/**
 * Number ranges of the order system: a random start per tenant, strictly increasing, so a number
 * is never handed out twice.
 */
export interface NumberRanges {
  order(): string;
  businessPartner(): string;
  purchaseOrder(): string;
  bundle(): string;
  invoice(): string;
  payment(): string;
  article(): string;
}

/**
 * What a module hands to the modules after it besides rows (ids that are not findable in the rows
 * by themselves). Read with `need`, which says so when a module is listed before the one that
 * makes it.
 */
export interface SeedHandles {
  /** Made by businessPartners.ts. */
  personas?: Personas;
  /** Made by subscriptions.ts. */
  featuredSubscriptions?: FeaturedSubscriptions;
}

export interface SeedContext {
  readonly tenant: DemoTenant;
  readonly L: LocalePack;
  readonly rng: Prng;
  /** Reference day (UTC day number, dates.ts). */
  readonly today: number;
  readonly numbers: NumberRanges;
  readonly catalogue: Catalogue;
  readonly currency: string;
  /** E-mail domain of the tenant's demo addresses. */
  readonly domain: string;
  /** The rows built so far (by the modules listed before the current one). */
  readonly data: DemoDataSet;
  readonly handles: SeedHandles;
}

/** One entity of the demo data: builds its rows, and inserts the tables it owns. */
export interface SeedModule {
  /** Names the module in errors and tests. */
  name: string;
  /** Adds the module's rows to ctx.data. */
  build?(ctx: SeedContext): void;
  /** Writes the module's tables; runs after every module has built, in list order. */
  insert?(tx: Queryable, data: DemoDataSet): Promise<void>;
}

export function need<K extends keyof SeedHandles>(ctx: SeedContext, key: K): NonNullable<SeedHandles[K]> {
  const value = ctx.handles[key];
  if (value === undefined)
    throw new Error(
      `demo seed: '${key}' is made by a seed module listed after the one reading it (seedModules.ts)`,
    );
  return value as NonNullable<SeedHandles[K]>;
}

/** The tenant's generator seed: stable per tenant id, fits a signed 32-bit int column. */
export function demoSeedFor(tenantId: string): number {
  return hashString(`demo-data:${tenantId}`) >>> 1;
}

/** A number range starting at `start`, each number `minStep`–`maxStep` above the one before. */
function range(rng: Prng, start: number, minStep: number, maxStep: number, width = 0): () => string {
  let current = start;
  return () => String((current += rng.int(minStep, maxStep))).padStart(width, '0');
}

function catalogueOf(tenant: DemoTenant): Catalogue {
  const all = cataloguePublications(tenant.id, tenant.publications);
  const print = all.filter((p) => p.kind === 'print');
  const covers = new Map(all.map((p) => [p.publication, coverImageUrl(p)]));
  const main = print[0] ?? all[0];
  return {
    all,
    print: main,
    otherPrint: print[1] ?? main,
    digital: all.find((p) => p.kind === 'digital') ?? main,
    last: all[all.length - 1],
    cover: (pub) => covers.get(pub.publication) as string,
  };
}

export function createSeedContext(tenant: DemoTenant, todayDate: Date): SeedContext {
  const seed = demoSeedFor(tenant.id);
  const rng = new Prng(seed);
  const today = dayOf(todayDate);
  // The ranges draw their starts in this order (object literal order is evaluation order).
  const numbers: NumberRanges = {
    order: range(rng, 4_100_000_000 + rng.int(0, 799_999_999), 7, 4_000),
    businessPartner: range(rng, rng.int(10_000_000, 80_000_000), 1, 500, 10),
    purchaseOrder: range(rng, 5_100_000_000 + rng.int(0, 799_999_999), 3, 900),
    bundle: range(rng, 7_100_000_000 + rng.int(0, 799_999_999), 1, 90),
    invoice: range(rng, 9_100_000_000 + rng.int(0, 799_999_999), 1, 50),
    payment: range(rng, rng.int(100_000_000, 900_000_000), 1, 20, 12),
    article: range(rng, rng.int(100_000, 800_000), 1, 300),
  };
  const L = localePack(tenant.defaultLocale);
  return {
    tenant,
    L,
    rng,
    today,
    numbers,
    catalogue: catalogueOf(tenant),
    currency: L.currency,
    domain: `${tenant.id}.example`,
    data: {
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
    },
    handles: {},
  };
}

/**
 * Demo prose in the tenant's other languages, for the `translations` of a details value
 * (server/store/localizedDetails.ts): `build` gets each other offered locale's pack. Undefined
 * for a tenant with one language.
 */
export function translationsOf<T>(
  ctx: Pick<SeedContext, 'tenant'>,
  build: (pack: LocalePack) => T,
): Partial<Record<DemoLocale, T>> | undefined {
  const others = (ctx.tenant.locales ?? []).filter(
    (l): l is DemoLocale => isDemoLocale(l) && l !== ctx.tenant.defaultLocale,
  );
  if (others.length === 0) return undefined;
  return Object.fromEntries(others.map((locale) => [locale, build(localePack(locale))]));
}
