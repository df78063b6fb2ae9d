/**
 * Demo data of the anonymous widgets (migration 011; account-flows.md §2 "Email widget", "Opt-in
 * widget"): a voucher code pool for each opt-in widget provider of the tenant file — the summer
 * party's pool is spent, so the demo shows "voucher codes exhausted" (§8) — and the e-mail
 * widget's reward cards with their downloads for tenants with the email-widget feature. Draws
 * nothing from the generator (codes come from a hash of tenant, pool and number).
 */
import type { SeedModule } from '../context';
import { hashString } from '../prng';

export interface WidgetSeedData {
  widgetVoucherCodes: Array<{ pool: string; code: string; claimed_at: string | null }>;
  emailWidgetRewards: Array<{
    key: string;
    position: number;
    description: Record<string, string>;
    cover_image_url: string;
    file_name: string;
  }>;
}

/** Codes per pool in the demo. */
export const DEMO_VOUCHER_CODES = 40;
/** Pools whose codes are all handed out in the demo (the exhausted provider). */
export const EXHAUSTED_DEMO_POOLS: readonly string[] = ['SOMMERFEST-2026'];

interface WidgetTenant {
  features?: readonly string[];
  optIns?: { widget?: { providers?: ReadonlyArray<{ voucherCodeKey?: string }> } };
}

const REWARDS: Array<{ key: string; de: string; en: string; colour: string; shape: string }> = [
  {
    key: 'wallpaper',
    de: 'Desktop-Hintergrund',
    en: 'Desktop wallpaper',
    colour: '#1d4e89',
    shape: '<circle cx="150" cy="80" r="40" fill="#fff" opacity=".5"/>',
  },
  {
    key: 'reading-guide',
    de: 'Leseguide zum Jahresende',
    en: 'Year-end reading guide',
    colour: '#2d6a4f',
    shape: '<rect x="100" y="40" width="100" height="80" rx="6" fill="#fff" opacity=".5"/>',
  },
  {
    key: 'bookmark',
    de: 'Lesezeichen zum Ausdrucken',
    en: 'Printable bookmark',
    colour: '#b23a48',
    shape: '<rect x="135" y="25" width="30" height="110" fill="#fff" opacity=".5"/>',
  },
];

const cover = (colour: string, shape: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="300" height="160" viewBox="0 0 300 160"><rect width="300" height="160" fill="${colour}"/>${shape}</svg>`)}`;

export const widgets: SeedModule = {
  name: 'widgets',
  build(ctx) {
    const tenant = ctx.tenant as typeof ctx.tenant & WidgetTenant;
    const data = ctx.data as typeof ctx.data & Partial<WidgetSeedData>;
    const pools = [
      ...new Set(
        (tenant.optIns?.widget?.providers ?? []).flatMap((p) => (p.voucherCodeKey ? [p.voucherCodeKey] : [])),
      ),
    ];
    const claimedAt = `${ctx.data.today}T09:00:00Z`;
    data.widgetVoucherCodes = pools.flatMap((pool) =>
      Array.from({ length: DEMO_VOUCHER_CODES }, (_v, i) => ({
        pool,
        code: `${pool}-${(hashString(`${ctx.data.tenantId}:${pool}:${i}`) % 1_679_616).toString(36).toUpperCase().padStart(4, '0')}${i.toString().padStart(2, '0')}`,
        claimed_at: EXHAUSTED_DEMO_POOLS.includes(pool) ? claimedAt : null,
      })),
    );
    data.emailWidgetRewards = tenant.features?.includes('email-widget')
      ? REWARDS.map((r, position) => ({
          key: r.key,
          position,
          description: { 'de-DE': r.de, 'en-GB': r.en },
          cover_image_url: cover(r.colour, r.shape),
          file_name: `${ctx.data.tenantId}-${r.key}.svg`,
        }))
      : [];
  },
  insert: async (tx, dataSet) => {
    const data = dataSet as typeof dataSet & Partial<WidgetSeedData>;
    if (data.widgetVoucherCodes?.length) {
      await tx.query(
        `insert into widget_voucher_codes (tenant_id, pool, code, claimed_at)
         select $1, pool, code, claimed_at from jsonb_to_recordset($2::jsonb) as x(pool text, code text, claimed_at timestamptz) on conflict do nothing`,
        [dataSet.tenantId, JSON.stringify(data.widgetVoucherCodes)],
      );
    }
    if (data.emailWidgetRewards?.length) {
      await tx.query(
        `insert into email_widget_rewards (tenant_id, key, position, description, cover_image_url, file_name)
         select $1, key, position, description, cover_image_url, file_name
           from jsonb_to_recordset($2::jsonb) as x(key text, position integer, description jsonb, cover_image_url text, file_name text) on conflict do nothing`,
        [dataSet.tenantId, JSON.stringify(data.emailWidgetRewards)],
      );
    }
  },
};
