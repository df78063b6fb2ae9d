/**
 * The publications of the demo tenants and their issue calendars.
 */
import { hashString } from './prng';
import { addDays, dayOfWeek, fromDay, parts, toDay } from './dates';

export type PublicationKind = 'print' | 'digital';
/** How often an issue appears: daily (Mon–Sat), weekly, sunday, monthly, quarterly, yearly. */
export type Frequency = 'daily' | 'weekly' | 'sunday' | 'monthly' | 'quarterly' | 'yearly';

export interface DemoPublication {
  /** Publication code, e.g. 'SKT'. */
  publication: string;
  description: string;
  kind?: PublicationKind;
  frequency?: Frequency;
  /** Order-system client (3 characters, the first 3 of subscription ids); derived from the tenant when missing. */
  clientId?: string;
}

export type CataloguePublication = Required<DemoPublication>;

const KNOWN: Record<string, CataloguePublication[]> = {
  stadtkurier: [
    {
      publication: 'SKT',
      description: 'Stadtkurier Tageszeitung',
      kind: 'print',
      frequency: 'daily',
      clientId: '101',
    },
    {
      publication: 'SKS',
      description: 'Stadtkurier am Sonntag',
      kind: 'print',
      frequency: 'sunday',
      clientId: '101',
    },
    {
      publication: 'SKE',
      description: 'Stadtkurier E-Paper',
      kind: 'digital',
      frequency: 'daily',
      clientId: '101',
    },
  ],
  'northern-review': [
    {
      publication: 'NRV',
      description: 'The Northern Review',
      kind: 'print',
      frequency: 'weekly',
      clientId: '201',
    },
    {
      publication: 'NRD',
      description: 'The Northern Review Digital',
      kind: 'digital',
      frequency: 'weekly',
      clientId: '201',
    },
  ],
  // Two order-system clients (hasMultipleAvsClients): the digital title lives in its own client.
  technikwelt: [
    {
      publication: 'TWM',
      description: 'Technikwelt Magazin',
      kind: 'print',
      frequency: 'monthly',
      clientId: '301',
    },
    {
      publication: 'TWP',
      description: 'Technikwelt Pro',
      kind: 'print',
      frequency: 'monthly',
      clientId: '301',
    },
    {
      publication: 'TWD',
      description: 'Technikwelt Digital',
      kind: 'digital',
      frequency: 'monthly',
      clientId: '302',
    },
    {
      publication: 'TWS',
      description: 'Technikwelt Sonderhefte',
      kind: 'print',
      frequency: 'quarterly',
      clientId: '301',
    },
  ],
  gartenfreunde: [
    {
      publication: 'GFM',
      description: 'Garden Friends Magazine',
      kind: 'print',
      frequency: 'monthly',
      clientId: '401',
    },
    {
      publication: 'GFJ',
      description: 'Garden Friends Yearbook',
      kind: 'print',
      frequency: 'yearly',
      clientId: '401',
    },
  ],
};

function titleCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** A 3-digit client id derived from the tenant id (5xx–9xx, clear of the known tenants' 1xx–4xx). */
export function derivedClientId(tenantId: string): string {
  return String(500 + (hashString(`client:${tenantId}`) % 500));
}

/** Publications of a tenant: the given ones, the known demo tenants', or two derived from its id. */
export function cataloguePublications(tenantId: string, given?: DemoPublication[]): CataloguePublication[] {
  if (given && given.length > 0) {
    const clientId = derivedClientId(tenantId);
    return given.map((p) => ({
      publication: p.publication,
      description: p.description,
      kind: p.kind ?? (/digital|e-paper|online/i.test(p.description) ? 'digital' : 'print'),
      frequency: p.frequency ?? 'weekly',
      clientId: p.clientId ?? clientId,
    }));
  }
  const known = KNOWN[tenantId];
  if (known) return known.map((p) => ({ ...p }));

  const letters = tenantId.toUpperCase().replace(/[^A-Z]/g, '');
  const prefix = (letters + 'XX').slice(0, 2);
  const name = titleCase(tenantId) || 'Demo';
  const clientId = derivedClientId(tenantId);
  return [
    { publication: `${prefix}P`, description: `${name} Print`, kind: 'print', frequency: 'weekly', clientId },
    {
      publication: `${prefix}D`,
      description: `${name} Digital`,
      kind: 'digital',
      frequency: 'weekly',
      clientId,
    },
  ];
}

const COVER_COLOURS = [
  '#1d4e89',
  '#b23a48',
  '#2d6a4f',
  '#7b2cbf',
  '#c05621',
  '#22577a',
  '#6d597a',
  '#3a5a40',
];

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A self-contained SVG cover (data: URL), so demo covers need no files or network. */
export function coverImageUrl(publication: CataloguePublication): string {
  const colour = COVER_COLOURS[hashString(publication.publication) % COVER_COLOURS.length];
  const words = publication.description.split(' ');
  const lines: string[] = [];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + ' ' + word).length <= 14) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  const title = lines
    .slice(0, 4)
    .map((line, i) => `<text x="12" y="${120 + i * 18}" font-size="14" fill="#fff">${escapeXml(line)}</text>`)
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="200" viewBox="0 0 150 200">` +
    `<rect width="150" height="200" fill="${colour}"/>` +
    `<rect x="8" y="8" width="134" height="184" fill="none" stroke="#fff" stroke-opacity=".5"/>` +
    `<text x="12" y="52" font-family="Georgia,serif" font-size="34" font-weight="bold" fill="#fff">${escapeXml(publication.publication)}</text>` +
    `<g font-family="Arial,sans-serif">${title}</g></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export interface IssueSeed {
  issue: string;
  issueNumber: string;
  description: string;
  dateOfFirstSale: string;
  dateOfFirstShipping: string;
}

/** How far back issues are generated: enough for 30 delivered issues of a subscription. */
const HISTORY_DAYS: Record<Frequency, number> = {
  daily: 200,
  weekly: 400,
  sunday: 400,
  monthly: 3 * 366,
  quarterly: 6 * 366,
  yearly: 12 * 366,
};

function isSaleDay(frequency: Frequency, day: number): boolean {
  const { month, dayOfMonth } = parts(day);
  const weekday = dayOfWeek(day); // 0 Sunday
  switch (frequency) {
    case 'daily':
      return weekday !== 0;
    case 'weekly':
      return weekday === 4;
    case 'sunday':
      return weekday === 0;
    case 'monthly':
      return dayOfMonth === 5;
    case 'quarterly':
      return dayOfMonth === 15 && month % 3 === 0;
    case 'yearly':
      return dayOfMonth === 1 && month === 10;
  }
}

/**
 * The issues of a publication from its history window up to about four months after today. Issue keys
 * are year + running number in the year (e.g. '2026047'), printed numbers '47/2026'.
 */
export function issueCalendar(
  publication: CataloguePublication,
  today: number,
  describe: (publicationName: string, issueNumber: string) => string,
): IssueSeed[] {
  const from = today - HISTORY_DAYS[publication.frequency];
  const to = today + 125;
  const issues: IssueSeed[] = [];
  // Count from 1 January of the first year so numbers run within each year.
  let day = toDay(parts(from).year, 1, 1);
  let year = parts(day).year;
  let ordinal = 0;
  for (; day <= to; day++) {
    const { year: y } = parts(day);
    if (y !== year) {
      year = y;
      ordinal = 0;
    }
    if (!isSaleDay(publication.frequency, day)) continue;
    ordinal++;
    if (day < from) continue;
    const issueNumber = `${ordinal}/${year}`;
    issues.push({
      issue: `${year}${String(ordinal).padStart(3, '0')}`,
      issueNumber,
      description: describe(publication.description, issueNumber),
      dateOfFirstSale: fromDay(day),
      dateOfFirstShipping: fromDay(addDays(day, -1)),
    });
  }
  return issues;
}
