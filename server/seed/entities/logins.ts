/**
 * The demo logins printed at start (docs/architecture.md "Data and the server"): one line per persona account
 * saying what it shows. Last in the list because it counts the rows of all the other modules; it
 * owns no table (the accounts are users.ts).
 */
import { type SeedModule, need } from '../context';

export interface DemoLogin {
  tenantId: string;
  email: string;
  description: string;
}

export const logins: SeedModule = {
  name: 'logins',
  build(ctx) {
    const { L, data, tenant } = ctx;
    const { main, second, third, company, demo } = need(ctx, 'personas');
    const featured = need(ctx, 'featuredSubscriptions');
    const subscriptionsOf = (bp: string) =>
      new Set(data.subscriptionRoles.filter((r) => r.bp_number === bp).map((r) => r.subscription_id)).size;
    const purchaseOrdersOf = (bp: string) =>
      new Set(data.purchaseOrderRoles.filter((r) => r.bp_number === bp).map((r) => r.purchase_order_id)).size;
    const pendingOf = (bp: string) => data.pendingOrders.filter((p) => p.bp_number === bp).length;
    const name = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

    data.logins = [
      {
        tenantId: tenant.id,
        email: main.email,
        description:
          `${name(L.main)}: ordering party, ${subscriptionsOf(main.bp)} subscriptions incl. a bundle (master + 2 components), ` +
          `a gift for ${name(L.second)} (cancelled), auto-renewal, holiday redirect, ` +
          `${data.paymentHistory.filter((p) => p.subscription_id === featured.paging.id).length} invoices (paging); ` +
          `${purchaseOrdersOf(main.bp)} purchase order, ${pendingOf(main.bp)} pending order`,
      },
      {
        tenantId: tenant.id,
        email: second.email,
        description:
          `${name(L.second)}: ${subscriptionsOf(second.bp)} subscriptions — gift recipient (WE) of ${name(L.main)}'s gift, ` +
          `suspended (IU, holiday break), inactive (I), online trial starting soon (IZ, phase upgrade), ` +
          `externally managed renewal (WBZA), invoice recipient (RE) only of ${name(L.relative)}'s e-paper`,
      },
      {
        tenantId: tenant.id,
        email: third.email,
        description:
          `${name(L.third)}: licence manager (LV) of ${L.company.company}'s multi-licence, membership, ` +
          `holiday download (planned switch to digital); ${purchaseOrdersOf(third.bp)} purchase orders in every invoice ` +
          `and shipping state; ${pendingOf(third.bp)} pending orders (VHS and shop)`,
      },
      {
        tenantId: tenant.id,
        email: demo.email,
        description:
          `${name(L.demo)}: same e-mail in every demo tenant with different data — here ${featured.demo.length} ` +
          `subscription(s) of ${featured.demo.map((s) => s.row.publication).join(', ')} and ${purchaseOrdersOf(demo.bp)} purchase order`,
      },
      {
        tenantId: tenant.id,
        email: company.email,
        description:
          `${L.company.company} (business customer, signed in by its procurement): ordering party and invoice ` +
          `recipient of ${subscriptionsOf(company.bp)} subscriptions — the multi-licence and five print copies ` +
          `with a webinar pass, invoiced at two VAT rates, the newest invoice partly paid; invoices as PDF ` +
          `and, where the tenant offers it, as XRechnung`,
      },
    ];
  },
};
