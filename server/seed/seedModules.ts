/**
 * The demo data, one module per entity, in the order they build and insert.
 *
 * To seed a new flow's data: add server/seed/entities/<entity>.ts exporting a SeedModule
 * (context.ts) whose `build` pushes its rows onto ctx.data (add the row type's field to DemoDataSet)
 * and whose `insert` writes its own tables (insertTables); then list it here, after the modules
 * whose rows it reads (ctx.data, ctx.handles via `need`) and whose tables its foreign keys point to.
 * A new module goes as late in the list as it can: every module draws from the tenant's one
 * generator in list order, so one that draws earlier changes the rows of every module after it.
 */
import type { SeedModule } from './context';
import { businessPartners } from './entities/businessPartners';
import { deliveredIssues } from './entities/deliveredIssues';
import { linkableSubscribers, linkableSubscribersWithAddress } from './entities/linkableSubscribers';
import { logins } from './entities/logins';
import { offers } from './entities/offers';
import { accountChanges } from './entities/accountChanges';
import { paymentHistory } from './entities/paymentHistory';
import { pendingOrders } from './entities/pendingOrders';
import { publications } from './entities/publications';
import { purchaseOrders } from './entities/purchaseOrders';
import { subscriptions } from './entities/subscriptions';
import { users } from './entities/users';
import { eCards } from './entities/eCards';
import { widgets } from './entities/widgets';
import { loyalty } from './entities/loyalty';
import { licenses } from './entities/licenses';

export const SEED_MODULES: readonly SeedModule[] = [
  publications,
  businessPartners,
  users,
  subscriptions,
  // Rows made by subscriptions.ts with each subscription; these own their tables.
  paymentHistory,
  deliveredIssues,
  linkableSubscribers,
  purchaseOrders,
  pendingOrders,
  // Counts the rows of the modules above and draws nothing, so new modules may go before it.
  logins,
  // Cancellation reasons, offers, vouchers, payments and the demo login's flow subscriptions (migration 008).
  offers,
  // Holiday services, bank accounts, a complaint, a future address and opt-ins (migration 009).
  accountChanges,
  // Licence objects and licences; the demo login's multi-licence where the tenant has multi-user-licenses.
  licenses,
  // Loyalty tiers, rewards, code pools, the demo login's membership; the e2e journeys' own accounts (migration 012).
  loyalty,
  // E-cards, voucher code pools of the opt-in widget and the e-mail widget's rewards (migration 011).
  eCards,
  widgets,
  // Subscribers to link through the link mailed to their address on record: last, drawing after all.
  linkableSubscribersWithAddress,
];
