/**
 * Demo e-cards (migration 011) of tenants with the e-card feature: the demo login sent one a week
 * ago and has one waiting for next month, so the table and the e-card job have something real.
 * Both were written then (`created_at`), not when the seed runs: the daily cap counts the cards
 * written in the last 24 hours, and a demo that starts with two of them spent would be wrong.
 * Draws nothing from the generator.
 */
import type { SeedModule } from '../context';
import { addDays, fromDay } from '../dates';
import { SHARED_DEMO_EMAIL } from './businessPartners';

export interface ECardSeedData {
  eCards: Array<{
    email: string;
    template_name: string;
    template_category: string;
    from_name: string;
    to_name: string;
    to_email: string;
    message: string;
    locale: string;
    send_at: string;
    status: string;
    created_at: string;
  }>;
}

interface ECardTenant {
  features?: readonly string[];
  eCard?: { templates?: ReadonlyArray<{ name: string; category: string }> };
}

export const eCards: SeedModule = {
  name: 'eCards',
  build(ctx) {
    const tenant = ctx.tenant as typeof ctx.tenant & ECardTenant;
    const data = ctx.data as typeof ctx.data & Partial<ECardSeedData>;
    const templates = tenant.eCard?.templates ?? [];
    data.eCards = [];
    if (!tenant.features?.includes('e-card') || templates.length === 0) return;
    const german = ctx.tenant.defaultLocale === 'de-DE';
    const first = templates[0];
    const last = templates[templates.length - 1];
    data.eCards.push(
      {
        email: SHARED_DEMO_EMAIL,
        template_name: first.name,
        template_category: first.category,
        from_name: german ? 'Alex' : 'Alex',
        to_name: german ? 'Sam' : 'Sam',
        to_email: `sam@${ctx.domain}`,
        message: german ? 'Alles Gute und viel Freude beim Lesen!' : 'All the best and happy reading!',
        locale: ctx.tenant.defaultLocale,
        send_at: `${fromDay(addDays(ctx.today, -7))}T10:00:00Z`,
        status: 'sent',
        created_at: `${fromDay(addDays(ctx.today, -7))}T09:00:00Z`,
      },
      {
        email: SHARED_DEMO_EMAIL,
        template_name: last.name,
        template_category: last.category,
        from_name: 'Alex',
        to_name: 'Robin',
        to_email: `robin@${ctx.domain}`,
        message: german ? 'Ich denke an dich – bis bald!' : 'Thinking of you – see you soon!',
        locale: ctx.tenant.defaultLocale,
        send_at: `${fromDay(addDays(ctx.today, 30))}T10:00:00Z`,
        status: 'scheduled',
        created_at: `${fromDay(addDays(ctx.today, -3))}T18:00:00Z`,
      },
    );
  },
  insert: async (tx, dataSet) => {
    const data = dataSet as typeof dataSet & Partial<ECardSeedData>;
    if (!data.eCards?.length) return;
    await tx.query(
      `insert into e_cards (tenant_id, user_id, template_name, template_category, from_name, to_name, to_email, message, locale, send_at, status, sent_at, created_at)
       select $1, u.id, c.template_name, c.template_category, c.from_name, c.to_name, c.to_email, c.message, c.locale, c.send_at, c.status,
              case when c.status = 'sent' then c.send_at end, c.created_at
         from jsonb_to_recordset($2::jsonb) as c(email text, template_name text, template_category text, from_name text, to_name text, to_email text, message text, locale text, send_at timestamptz, status text, created_at timestamptz)
         join users u on u.tenant_id = $1 and u.email = c.email`,
      [dataSet.tenantId, JSON.stringify(data.eCards)],
    );
  },
};
