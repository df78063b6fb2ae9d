import { FALLBACK_LOCALE } from '../../engine/domain/locales';

/**
 * Names, addresses and texts of the demo data in the tenant's language (de-DE: German names and
 * towns; en-GB: British ones). All made up; phone numbers use the ranges reserved for drama.
 */
export type DemoLocale = 'de-DE' | 'en-GB';

export interface PersonSeed {
  gender: 'female' | 'male';
  firstName: string;
  lastName: string;
  /** Local part of the login e-mail (ASCII). */
  emailLocal: string;
  street: string;
  streetNumber: string;
  zipcode: string;
  city: string;
  dateOfBirth: string;
}

export interface CompanySeed {
  company: string;
  department: string;
  street: string;
  streetNumber: string;
  zipcode: string;
  city: string;
}

export interface Place {
  zipcode: string;
  city: string;
}

export interface LocalePack {
  countryCode: string;
  /** The currency of the demo publisher's prices and payments. */
  currency: string;
  phonePrefix: string;
  /** Salutation titles used when the tenant configures no salutation list (codes 0001, 0002, 0003). */
  salutations: Record<'female' | 'male' | 'company', string>;
  /** The three fixed demo personas and the shared demo login's person. */
  main: PersonSeed;
  second: PersonSeed;
  third: PersonSeed;
  demo: PersonSeed;
  /** Family member of `second` whose subscription `second` pays (invoice recipient). */
  relative: Omit<PersonSeed, 'emailLocal'>;
  company: CompanySeed;
  holidayAddress: { street: string; streetNumber: string; zipcode: string; city: string };
  femaleFirstNames: string[];
  maleFirstNames: string[];
  lastNames: string[];
  streets: string[];
  places: Place[];
  texts: {
    mixType: Record<'PR' | 'DE' | 'ON' | 'KO' | 'MG', string>;
    billing: Record<'01' | '03' | '12', string>;
    edition: string;
    membershipName: (publicationName: string) => string;
    issueDescription: (publicationName: string, issueNumber: string) => string;
    expiryDesc: (issueNumber: string) => string;
    maxCycleOffer: string;
    premiums: string[];
    deliveryNote: string;
    trialTitle: (publicationName: string) => string;
    upgradeTitle: (publicationName: string) => string;
    articles: string[];
    reasonReplacement: string;
    /** Invoice lines of the business customer's order: copies of the print edition and a webinar pass. */
    invoiceLines: { copies: (publicationName: string) => string; webinar: string };
  };
}

const de: LocalePack = {
  countryCode: 'DE',
  currency: 'EUR',
  phonePrefix: '+49 30 23125',
  salutations: { female: 'Frau', male: 'Herr', company: 'Firma' },
  main: {
    gender: 'female',
    firstName: 'Anna',
    lastName: 'Schmidt',
    emailLocal: 'anna.schmidt',
    street: 'Lindenstraße',
    streetNumber: '12',
    zipcode: '10969',
    city: 'Berlin',
    dateOfBirth: '1984-04-17',
  },
  second: {
    gender: 'male',
    firstName: 'Max',
    lastName: 'Müller',
    emailLocal: 'max.mueller',
    street: 'Hauptstraße',
    streetNumber: '5a',
    zipcode: '80331',
    city: 'München',
    dateOfBirth: '1962-11-02',
  },
  third: {
    gender: 'female',
    firstName: 'Lena',
    lastName: 'Wagner',
    emailLocal: 'lena.wagner',
    street: 'Königsallee',
    streetNumber: '44',
    zipcode: '40212',
    city: 'Düsseldorf',
    dateOfBirth: '1990-06-23',
  },
  demo: {
    gender: 'male',
    firstName: 'Jonas',
    lastName: 'Becker',
    emailLocal: 'demo',
    street: 'Bahnhofstraße',
    streetNumber: '7',
    zipcode: '04109',
    city: 'Leipzig',
    dateOfBirth: '1978-01-30',
  },
  relative: {
    gender: 'female',
    firstName: 'Sophie',
    lastName: 'Müller',
    street: 'Universitätsstraße',
    streetNumber: '3',
    zipcode: '69117',
    city: 'Heidelberg',
    dateOfBirth: '2003-09-14',
  },
  company: {
    company: 'Wagner & Partner GmbH',
    department: 'Einkauf',
    street: 'Königsallee',
    streetNumber: '44',
    zipcode: '40212',
    city: 'Düsseldorf',
  },
  holidayAddress: { street: 'Strandweg', streetNumber: '3', zipcode: '18225', city: 'Kühlungsborn' },
  femaleFirstNames: [
    'Julia',
    'Katrin',
    'Sabine',
    'Marie',
    'Hannah',
    'Petra',
    'Claudia',
    'Leonie',
    'Ingrid',
    'Emma',
  ],
  maleFirstNames: [
    'Thomas',
    'Stefan',
    'Lukas',
    'Michael',
    'Jürgen',
    'Felix',
    'Andreas',
    'Paul',
    'Klaus',
    'Tobias',
  ],
  lastNames: [
    'Fischer',
    'Weber',
    'Meyer',
    'Schulz',
    'Hoffmann',
    'Koch',
    'Richter',
    'Klein',
    'Wolf',
    'Neumann',
    'Schröder',
    'Zimmermann',
  ],
  streets: [
    'Gartenstraße',
    'Schillerstraße',
    'Goethestraße',
    'Waldweg',
    'Am Markt',
    'Kirchgasse',
    'Ringstraße',
    'Mühlenweg',
  ],
  places: [
    { zipcode: '20095', city: 'Hamburg' },
    { zipcode: '50667', city: 'Köln' },
    { zipcode: '60311', city: 'Frankfurt am Main' },
    { zipcode: '70173', city: 'Stuttgart' },
    { zipcode: '01067', city: 'Dresden' },
    { zipcode: '28195', city: 'Bremen' },
    { zipcode: '90402', city: 'Nürnberg' },
    { zipcode: '30159', city: 'Hannover' },
  ],
  texts: {
    mixType: {
      PR: 'Print',
      DE: 'E-Paper',
      ON: 'Digital-Zugang',
      KO: 'Kombi: Print + E-Paper',
      MG: 'Mitgliedschaft',
    },
    billing: { '01': 'monatlich', '03': 'vierteljährlich', '12': 'jährlich' },
    edition: 'Stadtausgabe',
    membershipName: (name) => `${name} Leserclub`,
    issueDescription: (name, nr) => `${name}, Ausgabe ${nr}`,
    expiryDesc: (nr) => `endet mit Ausgabe ${nr}`,
    maxCycleOffer: 'Jahresabo mit 10 % Preisvorteil',
    premiums: ['Thermobecher', 'Regenschirm im Verlagsdesign', 'Buchprämie: Stadtführer'],
    deliveryNote: 'Bitte beim Nachbarn (Hausnr. 14) abgeben',
    trialTitle: (name) => `${name} – Probeabo 4 Wochen`,
    upgradeTitle: (name) => `${name} – Upgrade auf E-Paper`,
    articles: [
      'Sonderheft: Die besten Rezepte',
      'E-Book: Stadtgeschichte in 100 Bildern',
      'Jahreschronik 2025',
      'Posterset Historische Titelseiten',
      'Wandkalender 2027',
      'Leinwanddruck Ihrer Geburtstagsausgabe',
      'Hörbuch-Box Krimiklassiker',
      'Rätselbuch Band 3',
      'Stadtplan zum Falten',
      'Fotobuch Jahresrückblick',
    ],
    reasonReplacement: 'Ersatzlieferung',
    invoiceLines: {
      copies: (publicationName) => `${publicationName} – Druckausgabe, Jahresbezug je Exemplar`,
      webinar: 'Webinar-Pass (Live-Online-Seminare, 12 Monate)',
    },
  },
};

const en: LocalePack = {
  countryCode: 'GB',
  currency: 'GBP',
  phonePrefix: '+44 20 7946 0',
  salutations: { female: 'Ms', male: 'Mr', company: 'Company' },
  main: {
    gender: 'female',
    firstName: 'Olivia',
    lastName: 'Turner',
    emailLocal: 'olivia.turner',
    street: 'Rosebery Avenue',
    streetNumber: '14',
    zipcode: 'EC1R 4TD',
    city: 'London',
    dateOfBirth: '1985-03-09',
  },
  second: {
    gender: 'male',
    firstName: 'James',
    lastName: 'Whitfield',
    emailLocal: 'james.whitfield',
    street: 'Clifton Terrace',
    streetNumber: '3',
    zipcode: 'BS8 4HE',
    city: 'Bristol',
    dateOfBirth: '1960-08-21',
  },
  third: {
    gender: 'female',
    firstName: 'Priya',
    lastName: 'Patel',
    emailLocal: 'priya.patel',
    street: 'Portland Street',
    streetNumber: '81',
    zipcode: 'M1 4QX',
    city: 'Manchester',
    dateOfBirth: '1991-12-05',
  },
  demo: {
    gender: 'male',
    firstName: 'Sam',
    lastName: 'Taylor',
    emailLocal: 'demo',
    street: 'Castle Street',
    streetNumber: '27',
    zipcode: 'EH2 3DN',
    city: 'Edinburgh',
    dateOfBirth: '1979-05-11',
  },
  relative: {
    gender: 'female',
    firstName: 'Emily',
    lastName: 'Whitfield',
    street: 'Pembroke Street',
    streetNumber: '9',
    zipcode: 'CB2 3QZ',
    city: 'Cambridge',
    dateOfBirth: '2004-02-27',
  },
  company: {
    company: 'Harbourside Consulting Ltd',
    department: 'Procurement',
    street: 'Portland Street',
    streetNumber: '81',
    zipcode: 'M1 4QX',
    city: 'Manchester',
  },
  holidayAddress: { street: 'Harbour View', streetNumber: '7', zipcode: 'TR26 1LP', city: 'St Ives' },
  femaleFirstNames: [
    'Charlotte',
    'Amelia',
    'Sophie',
    'Grace',
    'Hannah',
    'Chloe',
    'Eleanor',
    'Lucy',
    'Megan',
    'Isla',
  ],
  maleFirstNames: [
    'Oliver',
    'George',
    'Harry',
    'Thomas',
    'William',
    'Jack',
    'Daniel',
    'Callum',
    'Rhys',
    'Edward',
  ],
  lastNames: [
    'Smith',
    'Jones',
    'Williams',
    'Brown',
    'Evans',
    'Wilson',
    'Roberts',
    'Hughes',
    'Wright',
    'Walker',
    'Robinson',
    'Clarke',
  ],
  streets: [
    'High Street',
    'Station Road',
    'Church Lane',
    'Victoria Road',
    'Mill Lane',
    'Park Avenue',
    'Queens Road',
    'The Green',
  ],
  places: [
    { zipcode: 'LS1 4DY', city: 'Leeds' },
    { zipcode: 'B1 1BB', city: 'Birmingham' },
    { zipcode: 'NE1 7RU', city: 'Newcastle upon Tyne' },
    { zipcode: 'L1 8JQ', city: 'Liverpool' },
    { zipcode: 'CF10 1EP', city: 'Cardiff' },
    { zipcode: 'OX1 3BG', city: 'Oxford' },
    { zipcode: 'YO1 7HH', city: 'York' },
    { zipcode: 'G1 1XQ', city: 'Glasgow' },
  ],
  texts: {
    mixType: {
      PR: 'Print edition',
      DE: 'Digital edition',
      ON: 'Online access',
      KO: 'Print + digital bundle',
      MG: 'Membership',
    },
    billing: { '01': 'monthly', '03': 'quarterly', '12': 'yearly' },
    edition: 'National edition',
    membershipName: (name) => `${name} Readers' Club`,
    issueDescription: (name, nr) => `${name}, issue ${nr}`,
    expiryDesc: (nr) => `ends with issue ${nr}`,
    maxCycleOffer: 'Annual subscription, save 10%',
    premiums: ['Insulated travel mug', 'Branded umbrella', 'Book: A walking guide'],
    deliveryNote: 'Please leave with the neighbour at no. 16',
    trialTitle: (name) => `${name} – 4-week trial`,
    upgradeTitle: (name) => `${name} – upgrade to digital`,
    articles: [
      'Special edition: The best recipes',
      'E-book: A city history in 100 pictures',
      'Year in review 2025',
      'Poster set: Historic front pages',
      'Wall calendar 2027',
      'Canvas print of your birthday front page',
      'Audiobook box set: Classic crime',
      'Puzzle book volume 3',
      'Folding city map',
      'Photo book: The year in pictures',
    ],
    reasonReplacement: 'Replacement delivery',
    invoiceLines: {
      copies: (publicationName) => `${publicationName} – print edition, one year per copy`,
      webinar: 'Webinar pass (live online seminars, 12 months)',
    },
  },
};

/** The demo data by locale: a locale with a pack of its own gets it; DemoLocale is this table's keys. */
const PACKS: Readonly<Record<DemoLocale, LocalePack>> = { 'de-DE': de, 'en-GB': en };

export const isDemoLocale = (locale: string): locale is DemoLocale => Object.hasOwn(PACKS, locale);

/**
 * The demo data of a locale; a locale without a pack of its own gets the fallback locale's
 * (British English, as its texts do: engine/domain/locales.ts), never another's by a ternary.
 */
export function localePack(locale: string): LocalePack {
  // tests/server/seed/seedLocales.test.ts: the fallback locale has a pack.
  return PACKS[isDemoLocale(locale) ? locale : (FALLBACK_LOCALE as DemoLocale)];
}
