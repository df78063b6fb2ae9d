/**
 * Demo data of the loyalty programme (migration 012; account-flows.md §2 "Loyalty programme", §3):
 * three tiers with their icons, rewards with names per locale and images (small SVGs as data URIs,
 * like the tenants' logos and the covers), code pools, and the demo login as a member at the second
 * tier with favourites and history (a used reward, a shop link opened); a reward of the unreached
 * third tier; a reward that is not claimable online; a shop-link reward still to claim.
 *
 * Tier thresholds follow the demo login's runtime (months since its first subscription began, the
 * rule of engine/domain/loyalty.ts), so it sits at the second of three tiers whatever day it is.
 *
 * Also the end-to-end journeys' own accounts (tests/e2e/loyaltyAndProfile.spec.ts): each journey
 * joins, leaves, changes its address or deletes an account no other journey signs in with, one per
 * browser project, so the shared demo login stays as it is.
 */
import { runtimeMonths } from '../../../engine/domain/loyalty';
import { type SeedModule, need } from '../context';
import { fromDay } from '../dates';
import { hashString } from '../prng';

type Text = { 'de-DE': string; 'en-GB': string };

interface TierSeedRow {
  tier_code: string;
  position: number;
  name: Text;
  description: Text;
  runtime_to_reach: number;
  reached_icon_url: string;
  locked_icon_url: string;
}

interface RewardSeedRow {
  id: string;
  tier_code: string;
  position: number;
  name: Text;
  description: Text;
  icon_url: string;
  main_image_url: string;
  reward_type: string;
  claimable: boolean;
  target_url: string | null;
  consent: Text | null;
}

export interface LoyaltyData {
  loyaltyTiers: TierSeedRow[];
  loyaltyRewards: RewardSeedRow[];
  loyaltyCodes: Array<{ reward_id: string; code: string; claimed_by_email: string | null }>;
  loyaltyMembers: Array<{ email: string; opted_in: boolean }>;
  loyaltyFavorites: Array<{ email: string; reward_id: string }>;
  loyaltyClaims: Array<{ email: string; reward_id: string; code: string | null; claimed_at: string }>;
}

/** The journeys' accounts, by journey and browser project (tests/e2e/loyaltyAndProfile.spec.ts). */
export const JOURNEY_ACCOUNTS = [
  'club-desktop',
  'club-phone',
  'profile-desktop',
  'profile-phone',
  'leaving-desktop',
  'leaving-phone',
].map((name) => `${name}@portal.example`);

const svg = (body: string, w = 96, h = 96) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`)}`;
const medal = (fill: string, locked: boolean) =>
  svg(
    `<circle cx="48" cy="52" r="34" fill="${locked ? '#c9c9c9' : fill}"/><path d="M30 4h14l4 16-12 6zM66 4H52l-4 16 12 6z" fill="${locked ? '#9a9a9a' : '#1f4e8c'}"/>` +
      (locked
        ? '<rect x="36" y="50" width="24" height="18" rx="3" fill="#666"/><path d="M40 50v-6a8 8 0 0 1 16 0v6" stroke="#666" stroke-width="4" fill="none"/>'
        : `<circle cx="48" cy="52" r="20" fill="none" stroke="#fff" stroke-width="4"/>`),
  );
const PALETTE = ['#9a3412', '#2e6b34', '#1f4e8c', '#7c2d92', '#8a5a00', '#0f766e'];
/**
 * Pictograms drawn as paths in a 40 × 40 box (a star, a ticket, a book, a heart, a gift, a note):
 * no letter, which would be one language's initial (a "C" for Kino), and no font the reader may lack.
 */
const PICTOGRAMS = [
  'M20 2l5.3 12.2L38 15.5l-9.7 8.6 2.9 13L20 30.4 8.8 37.1l2.9-13L2 15.5l12.7-1.3z',
  'M4 10h32v7a4 4 0 0 0 0 6v7H4v-7a4 4 0 0 0 0-6z',
  'M6 6h12a4 4 0 0 1 2 1 4 4 0 0 1 2-1h12v28H22a4 4 0 0 0-2 1 4 4 0 0 0-2-1H6z',
  'M20 36S4 25.5 4 14.5A8.5 8.5 0 0 1 20 10a8.5 8.5 0 0 1 16 4.5C36 25.5 20 36 20 36z',
  'M5 16h30v6H5zM7 22h26v14H7zM18 16h4v20h-4zM20 16c-2-8-12-8-10-2 1 2 6 2 10 2 4 0 9 0 10-2 2-6-8-6-10 2z',
  'M16 6l18-4v24a5 5 0 1 1-3-4.6V9.4L19 12v18a5 5 0 1 1-3-4.6z',
];
const pictogram = (i: number, x: number, y: number, size: number) =>
  `<path transform="translate(${x} ${y}) scale(${size / 40})" d="${PICTOGRAMS[i % PICTOGRAMS.length]}" fill="#fff"/>`;
const rewardIcon = (i: number) =>
  svg(
    `<rect width="96" height="96" rx="16" fill="${PALETTE[i % PALETTE.length]}"/>${pictogram(i, 24, 24, 48)}`,
  );
const rewardImage = (i: number) =>
  svg(
    `<rect width="320" height="180" fill="${PALETTE[i % PALETTE.length]}"/><circle cx="260" cy="40" r="70" fill="#ffffff22"/>${pictogram(i, 120, 50, 80)}`,
    320,
    180,
  );

// [id suffix, German name, English name, German description, English description, type, claimable]
type RewardSpec = [string, string, string, string, string, string, boolean];
const TIERS: Array<{ code: string; name: Text; description: Text; colour: string; rewards: RewardSpec[] }> = [
  {
    code: 'STARTER',
    name: { 'de-DE': 'Einsteiger', 'en-GB': 'Starter' },
    description: {
      'de-DE': 'Willkommen im Club: Vorteile ab dem ersten Tag.',
      'en-GB': 'Welcome to the club: benefits from day one.',
    },
    colour: '#b87333',
    rewards: [
      [
        'coffee',
        'Kaffee-Gutschein',
        'Coffee voucher',
        'Ein Heißgetränk Ihrer Wahl in unseren Partnercafés.',
        'A hot drink of your choice at our partner cafés.',
        'G',
        true,
      ],
      [
        'ebook',
        'E-Book zum Kennenlernen',
        'Welcome e-book',
        'Ein E-Book aus unserem Verlagsprogramm.',
        'An e-book from our list.',
        'G',
        true,
      ],
      [
        'cinema',
        'Kino: 2 für 1',
        'Cinema: 2 for 1',
        'Zwei Kinokarten zum Preis von einer.',
        'Two cinema tickets for the price of one.',
        'G',
        true,
      ],
      [
        'museum',
        'Museumseintritt',
        'Museum entry',
        'Freier Eintritt in ein Partnermuseum.',
        'Free entry to a partner museum.',
        'G',
        true,
      ],
      [
        'podcast',
        'Podcast-Abo',
        'Podcast pass',
        'Drei Monate Premium-Podcasts.',
        'Three months of premium podcasts.',
        'G',
        true,
      ],
      [
        'crossword',
        'Rätselheft',
        'Puzzle book',
        'Unser Rätselheft als PDF.',
        'Our puzzle book as a PDF.',
        'G',
        true,
      ],
      [
        'bike',
        'Leihrad-Tag',
        'Bike hire day',
        'Ein Tag Leihrad in Ihrer Stadt.',
        'A day of bike hire in your town.',
        'G',
        true,
      ],
      [
        'tea',
        'Teeprobe',
        'Tea sampler',
        'Eine Teeprobe aus unserem Shop.',
        'A tea sampler from our shop.',
        'G',
        true,
      ],
      [
        'archive',
        'Archivzugang',
        'Archive pass',
        'Ein Monat Zugang zum Archiv.',
        'A month of archive access.',
        'G',
        true,
      ],
      [
        'bag',
        'Stoffbeutel',
        'Tote bag',
        'Unser Stoffbeutel, abzuholen im Kundencenter.',
        'Our tote bag, to collect at the customer centre.',
        'X',
        false,
      ],
    ],
  },
  {
    code: 'SILVER',
    name: { 'de-DE': 'Silber', 'en-GB': 'Silver' },
    description: { 'de-DE': 'Für treue Leserinnen und Leser.', 'en-GB': 'For loyal readers.' },
    colour: '#8c9aa8',
    rewards: [
      [
        'shop10',
        '{amount} im Leser-Shop',
        '{amount} in the reader shop',
        'Ein Einkaufsgutschein, direkt im Shop eingelöst.',
        'A shopping credit, redeemed straight in the shop.',
        'L',
        true,
      ],
      [
        'concert',
        'Konzertkarten-Rabatt',
        'Concert ticket discount',
        '20 % auf Konzertkarten unserer Partner.',
        '20% off our partners’ concert tickets.',
        'G',
        true,
      ],
      [
        'books',
        'Buchpaket',
        'Book bundle',
        'Drei Bücher aus dem Verlagsprogramm, im Shop auswählen.',
        'Three books from our list, chosen in the shop.',
        '3',
        true,
      ],
      [
        'workshop',
        'Schreibwerkstatt',
        'Writing workshop',
        'Ein Abend mit unserer Redaktion.',
        'An evening with our editors.',
        'G',
        true,
      ],
    ],
  },
  {
    code: 'GOLD',
    name: { 'de-DE': 'Gold', 'en-GB': 'Gold' },
    description: {
      'de-DE': 'Unser Dank für viele gemeinsame Jahre.',
      'en-GB': 'Our thanks for many years together.',
    },
    colour: '#d4a017',
    rewards: [
      [
        'newsroom',
        'Redaktionsbesuch',
        'Newsroom visit',
        'Ein Blick hinter die Kulissen der Redaktion.',
        'A look behind the scenes of the newsroom.',
        'G',
        true,
      ],
      [
        'weekend',
        'Wochenendreise',
        'Weekend break',
        'Ein Wochenende für zwei in einem Partnerhotel.',
        'A weekend for two at a partner hotel.',
        'G',
        true,
      ],
    ],
  },
];

/** Codes are a pure function of tenant, reward and number: unique per reward, stable between runs. */
const codeFor = (tenantId: string, rewardId: string, n: number) =>
  `${rewardId.slice(0, 3).toUpperCase()}-${(hashString(`${tenantId}:${rewardId}:${n}`) >>> 0).toString(36).toUpperCase().padStart(7, '0').slice(0, 7)}`;

export const CODES_PER_POOL = 40;

export const loyalty: SeedModule = {
  name: 'loyalty',
  build(ctx) {
    const data = ctx.data as typeof ctx.data & Partial<LoyaltyData>;
    const { demo } = need(ctx, 'personas');
    const today = fromDay(ctx.today);
    // The demo login's runtime, by the rule the server counts it with.
    const demoSubscriptions = new Set(
      ctx.data.subscriptionRoles.filter((r) => r.bp_number === demo.bp).map((r) => r.subscription_id),
    );
    const starts = ctx.data.subscriptions
      .filter((s) => demoSubscriptions.has(s.id))
      .map((s) => s.valid_from || s.cust_order_date);
    const runtime = runtimeMonths(starts, today);
    // Second of three tiers: reached at most at its runtime (at least 1 month), the third a year beyond.
    const silver = Math.max(1, Math.min(12, runtime));
    const thresholds = [0, silver, Math.max(runtime, silver) + 12];

    data.loyaltyTiers = TIERS.map((tier, position) => ({
      tier_code: tier.code,
      position,
      name: tier.name,
      description: tier.description,
      runtime_to_reach: thresholds[position],
      reached_icon_url: medal(tier.colour, false),
      locked_icon_url: medal(tier.colour, true),
    }));
    const withAmount = (name: string, locale: string) =>
      name.replace(
        '{amount}',
        new Intl.NumberFormat(locale, {
          style: 'currency',
          currency: ctx.currency,
          maximumFractionDigits: 0,
        }).format(10),
      );
    data.loyaltyRewards = [];
    let n = 0;
    for (const tier of TIERS) {
      tier.rewards.forEach(([suffix, de, en, deText, enText, type, claimable], position) => {
        const id = `${tier.code.toLowerCase()}-${suffix}`;
        data.loyaltyRewards!.push({
          id,
          tier_code: tier.code,
          position,
          // An amount in the tenant's own currency, written as each language writes it.
          name: { 'de-DE': withAmount(de, 'de-DE'), 'en-GB': withAmount(en, 'en-GB') },
          description: { 'de-DE': deText, 'en-GB': enText },
          icon_url: rewardIcon(n),
          main_image_url: rewardImage(n),
          reward_type: type,
          claimable,
          target_url: type === 'L' || type === '3' ? `https://shop.${ctx.domain}/loyalty/${suffix}` : null,
          consent:
            type === 'L'
              ? {
                  'de-DE': 'Sie werden zum Leser-Shop weitergeleitet.',
                  'en-GB': 'You will be taken to the reader shop.',
                }
              : null,
        });
        n++;
      });
    }
    data.loyaltyCodes = data.loyaltyRewards
      .filter((r) => r.reward_type === 'G')
      .flatMap((r) =>
        Array.from({ length: CODES_PER_POOL }, (_, i) => ({
          reward_id: r.id,
          code: codeFor(ctx.tenant.id, r.id, i),
          claimed_by_email: null as string | null,
        })),
      );

    // The demo login: a member at the second tier, two favourites, a used code and an opened shop link.
    const usedCode = data.loyaltyCodes.find((c) => c.reward_id === 'starter-coffee')!;
    usedCode.claimed_by_email = demo.email;
    data.loyaltyMembers = [{ email: demo.email, opted_in: true }];
    data.loyaltyFavorites = [
      { email: demo.email, reward_id: 'silver-concert' },
      { email: demo.email, reward_id: 'gold-weekend' },
    ];
    data.loyaltyClaims = [
      {
        email: demo.email,
        reward_id: 'starter-coffee',
        code: usedCode.code,
        claimed_at: `${fromDay(ctx.today - 40)}T09:30:00Z`,
      },
      {
        email: demo.email,
        reward_id: 'silver-books',
        code: null,
        claimed_at: `${fromDay(ctx.today - 12)}T18:05:00Z`,
      },
    ];

    // The journeys' own accounts (magic-link sign-in, no subscriptions: runtime 0, the first tier).
    for (const email of JOURNEY_ACCOUNTS) {
      const name = email.split('@')[0].split('-')[0];
      ctx.data.users.push({
        id: ctx.rng.uuid(),
        email,
        display_name: `Journey ${name}`,
        first_name: 'Journey',
        last_name: name,
      });
    }
  },
  insert: async (tx, dataSet) => {
    const data = dataSet as typeof dataSet & Partial<LoyaltyData>;
    const byEmail = async (sql: string, rows: readonly object[] | undefined) => {
      if (rows?.length) await tx.query(sql, [dataSet.tenantId, JSON.stringify(rows)]);
    };
    await byEmail(
      `insert into loyalty_codes (tenant_id, reward_id, code, claimed_by, claimed_at)
       select $1, x.reward_id, x.code, u.id, case when x.claimed_by_email is null then null else now() end
         from jsonb_to_recordset($2::jsonb) as x(reward_id text, code text, claimed_by_email text)
         left join users u on u.tenant_id = $1 and u.email = x.claimed_by_email`,
      data.loyaltyCodes,
    );
    await byEmail(
      `insert into loyalty_members (tenant_id, user_id, opted_in)
       select $1, u.id, x.opted_in from jsonb_to_recordset($2::jsonb) as x(email text, opted_in boolean)
         join users u on u.tenant_id = $1 and u.email = x.email on conflict do nothing`,
      data.loyaltyMembers,
    );
    await byEmail(
      `insert into loyalty_favorites (tenant_id, user_id, reward_id)
       select $1, u.id, x.reward_id from jsonb_to_recordset($2::jsonb) as x(email text, reward_id text)
         join users u on u.tenant_id = $1 and u.email = x.email on conflict do nothing`,
      data.loyaltyFavorites,
    );
    await byEmail(
      `insert into loyalty_claims (tenant_id, user_id, reward_id, code, claimed_at)
       select $1, u.id, x.reward_id, x.code, x.claimed_at from jsonb_to_recordset($2::jsonb) as x(email text, reward_id text, code text, claimed_at timestamptz)
         join users u on u.tenant_id = $1 and u.email = x.email on conflict do nothing`,
      data.loyaltyClaims,
    );
  },
};
