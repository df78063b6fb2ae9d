/** Pending orders (not yet in the order system): VHS and shop orders of the personas. */
import type { CataloguePublication } from '../catalogue';
import { type SeedModule, need, translationsOf } from '../context';
import type { LocalePack } from '../locales';
import { addDays, fromDay } from '../dates';
import { issueNumberAfter } from './publications';

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
  /** The title in the tenant's other languages (server/store/localizedDetails.ts). */
  translations?: Partial<Record<string, { title: string }>>;
}

interface PendingOrderSpec {
  bp: string;
  source: string;
  title: string;
  /** The title in another language's words (a product or article name the order system writes). */
  titleIn?: (pack: LocalePack) => string;
  pub: CataloguePublication;
  orderNumber?: string;
  daysAgo: number;
  download?: { url: string; isFile: boolean };
}

export const pendingOrders: SeedModule = {
  name: 'pendingOrders',
  build(ctx) {
    const { L, today, tenant } = ctx;
    const { print: P, otherPrint: P2, digital: D, last: X } = ctx.catalogue;
    const { main, third } = need(ctx, 'personas');
    const { holidayDownload } = need(ctx, 'featuredSubscriptions');
    let index = 0;
    const add = (spec: PendingOrderSpec): void => {
      index++;
      ctx.data.pendingOrders.push({
        id: `PND${String(index).padStart(3, '0')}${ctx.rng.digits(6)}`,
        bp_number: spec.bp,
        source: spec.source,
        title: spec.title,
        order_number: spec.orderNumber ?? ctx.numbers.order(),
        article_number: ctx.numbers.article(),
        order_date: fromDay(addDays(today, -spec.daysAgo)),
        cover_image_url: ctx.catalogue.cover(spec.pub),
        issue_number_from: issueNumberAfter(ctx, spec.pub, addDays(today, 7)),
        download_url: spec.download?.url ?? null,
        download_is_file: spec.download?.isFile ?? null,
        translations: spec.titleIn && translationsOf(ctx, (O) => ({ title: spec.titleIn!(O) })),
      });
    };
    add({
      bp: third.bp,
      source: 'VHS',
      title: L.texts.trialTitle(P.description),
      titleIn: (O) => O.texts.trialTitle(P.description),
      pub: P,
      daysAgo: 1,
    });
    add({
      bp: third.bp,
      source: 'SHOP',
      title: L.texts.articles[1],
      titleIn: (O) => O.texts.articles[1],
      pub: X,
      daysAgo: 3,
      download: {
        url: `/demo-files/${tenant.id}/${L.texts.articles[1].toLowerCase().replace(/[^a-z0-9]+/g, '-')}.pdf`,
        isFile: true,
      },
    });
    // Duplicates an order the subscriptions already show: the orders page drops it (§7 GET /pending-orders).
    add({
      bp: third.bp,
      source: 'VHS',
      title: `${P2.description}`,
      pub: P2,
      orderNumber: holidayDownload.orderNumber,
      daysAgo: 110,
    });
    add({
      bp: main.bp,
      source: 'VHS',
      title: L.texts.upgradeTitle(D.description),
      titleIn: (O) => O.texts.upgradeTitle(D.description),
      pub: D,
      daysAgo: 2,
    });
  },
};
