/**
 * Purchase orders (single purchases) and their roles: every invoice state (1 open, 2 paid,
 * 3 overpaid), shipping state (pending / 90 shipped) and shipping provider code (§9).
 */
import type { DownloadStatus, PackageInfo, Role } from '../../store/rows';
import { type SeedContext, type SeedModule, need, translationsOf } from '../context';
import { addDays, fromDay } from '../dates';
import { allRoles } from './subscriptions';

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

/** Shipping provider codes of portal-core.md §9, each used by some purchase order. */
const PROVIDERS = {
  postal: '01',
  dpd: '02',
  dhl: '07',
  dhlExpress: '08',
  gls: '09',
  pickup: '16',
  swissPost: '17',
  freight1: '91',
  freight2: '92',
};

/** A consignment number in the provider's format; none for self pickup. */
function consignment(ctx: SeedContext, provider: string): string | null {
  const { rng } = ctx;
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
      return `RR${rng.digits(9)}${ctx.L.countryCode}`;
    case PROVIDERS.swissPost:
      return `99.00.${rng.digits(6)}.${rng.digits(8)}`;
    case PROVIDERS.freight1:
    case PROVIDERS.freight2:
      return `SP${rng.digits(8)}`;
    default:
      return null;
  }
}

interface PurchaseOrderSpec {
  roles: Array<[string, Role]>;
  daysAgo: number;
  invoiceStatus: 1 | 2 | 3;
  provider: string;
  shipped: boolean;
  download: DownloadStatus;
  quantity?: number;
  reason?: string | null;
}

export const purchaseOrders: SeedModule = {
  name: 'purchaseOrders',
  build(ctx) {
    const { L, today } = ctx;
    const { all: pubs, print: P } = ctx.catalogue;
    const { main, third, company, demo } = need(ctx, 'personas');
    let articleIndex = 0;
    const add = (spec: PurchaseOrderSpec): void => {
      const number = ctx.numbers.purchaseOrder();
      const id = `${P.clientId}${number}`;
      const articleAt = articleIndex++ % L.texts.articles.length;
      const article = L.texts.articles[articleAt];
      // The article's words in the tenant's other languages (server/store/localizedDetails.ts).
      const translations = translationsOf(ctx, (O) => ({
        distributionArticleDescription: O.texts.articles[articleAt],
        ...(spec.reason && { reason: O.texts.reasonReplacement }),
      }));
      const ordered = addDays(today, -spec.daysAgo);
      ctx.data.purchaseOrders.push({
        id,
        purchase_order_number: number,
        distribution_article_number: ctx.numbers.article(),
        distribution_article_description: article,
        cover_image_url: ctx.catalogue.cover(pubs[articleIndex % pubs.length]),
        date_of_purchase_order_client: fromDay(ordered),
        quantity: spec.quantity ?? 1,
        invoice_status: spec.invoiceStatus,
        invoice_number: ctx.numbers.invoice(),
        download_status: spec.download,
        package_info: {
          scanStatus: spec.shipped ? '90' : '',
          versWeg: spec.provider,
          consignmentNumber: spec.shipped ? consignment(ctx, spec.provider) : null,
          deliveryDate: spec.shipped ? fromDay(addDays(ordered, ctx.rng.int(2, 6))) : null,
        },
        // A replacement delivery (with a reason) is free: its invoice request is not_relevant (§4).
        details: {
          purchaseOrderId: number,
          reason: spec.reason ?? null,
          invoiceAmount: spec.reason ? 0 : Number(((spec.quantity ?? 1) * 14.9).toFixed(2)),
          ...(translations && { translations }),
        },
      });
      for (const [bp, role] of spec.roles)
        ctx.data.purchaseOrderRoles.push({ purchase_order_id: id, bp_number: bp, role });
    };
    const ofThird = allRoles(third.bp);
    add({
      roles: ofThird,
      daysAgo: 2,
      invoiceStatus: 1,
      provider: PROVIDERS.postal,
      shipped: false,
      download: 'not_supported',
    });
    add({
      roles: ofThird,
      daysAgo: 25,
      invoiceStatus: 2,
      provider: PROVIDERS.dhl,
      shipped: true,
      download: 'found',
    });
    add({
      roles: ofThird,
      daysAgo: 40,
      invoiceStatus: 3,
      provider: PROVIDERS.dpd,
      shipped: true,
      download: 'not_found',
    });
    add({
      roles: ofThird,
      daysAgo: 70,
      invoiceStatus: 2,
      provider: PROVIDERS.gls,
      shipped: true,
      download: 'expired',
      quantity: 3,
    });
    add({
      roles: ofThird,
      daysAgo: 95,
      invoiceStatus: 2,
      provider: PROVIDERS.dhlExpress,
      shipped: true,
      download: 'unknown',
    });
    // The company orders and pays, the third persona receives.
    add({
      roles: [
        [company.bp, 'AG'],
        [company.bp, 'RE'],
        [third.bp, 'WE'],
      ],
      daysAgo: 5,
      invoiceStatus: 1,
      provider: PROVIDERS.pickup,
      shipped: false,
      download: 'not_supported',
    });
    add({
      roles: ofThird,
      daysAgo: 130,
      invoiceStatus: 2,
      provider: PROVIDERS.swissPost,
      shipped: true,
      download: 'not_supported',
      reason: L.texts.reasonReplacement,
    });
    add({
      roles: ofThird,
      daysAgo: 160,
      invoiceStatus: 2,
      provider: PROVIDERS.freight1,
      shipped: true,
      download: 'not_supported',
      quantity: 2,
    });
    add({
      roles: allRoles(main.bp),
      daysAgo: 33,
      invoiceStatus: 2,
      provider: PROVIDERS.postal,
      shipped: true,
      download: 'found',
    });
    add({
      roles: allRoles(demo.bp),
      daysAgo: 12,
      invoiceStatus: 2,
      provider: PROVIDERS.freight2,
      shipped: true,
      download: 'not_supported',
    });
  },
};
