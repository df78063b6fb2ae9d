/**
 * Business partners: the demo personas (their logins are users.ts), a relative and a company
 * without a login. Other modules add partners of their own with `addPerson`.
 *
 * Personas (logins, no password: magic link):
 *  - main   (anna.schmidt@<tenant>.example / olivia.turner@…): ordering party of a bundle, a gift, …
 *  - second (max.mueller@… / james.whitfield@…): gift recipient, suspended, inactive, starting soon,
 *           externally managed, invoice recipient only of a relative's subscription
 *  - third  (lena.wagner@… / priya.patel@…): licence manager of a company licence, membership,
 *           holiday download, purchase orders and pending orders
 *  - demo@portal.example: exists in every tenant with that tenant's own, different data.
 */
import type { BusinessPartnerDetails } from '../../store/rows';
import type { DemoTenant, SeedContext, SeedModule } from '../context';
import { addDays, fromDay } from '../dates';
import type { LocalePack, PersonSeed } from '../locales';

export interface BusinessPartnerSeedRow {
  bp_number: string;
  salutation_code: string | null;
  first_name: string | null;
  last_name1: string | null;
  company1: string | null;
  street: string;
  street_number: string;
  zipcode: string;
  city: string;
  country_code: string;
  email_address: string | null;
  phone_number: string | null;
  date_of_birth: string | null;
  details: BusinessPartnerDetails;
}

/** The e-mail that exists in every demo tenant, each time with different data (tenant isolation). */
export const SHARED_DEMO_EMAIL = 'demo@portal.example';

export interface Persona {
  bp: string;
  person: Omit<PersonSeed, 'emailLocal'>;
}
export interface LoginPersona extends Persona {
  email: string;
}

/** The partners the demo stories are told with (handed on as ctx.handles.personas). */
export interface Personas {
  main: LoginPersona;
  second: LoginPersona;
  third: LoginPersona;
  relative: Persona;
  /**
   * The third persona's employer, holder of the company licence: a business customer with a login
   * of its own, its procurement mailbox (the account a company's accounting signs in with), so
   * the demo shows what a business sees, the XRechnung download among it.
   */
  company: LoginPersona;
  demo: LoginPersona;
}

type SalutationKind = 'female' | 'male' | 'company';

/** Salutation code and title for a kind of partner, from the tenant's list when it has one. */
function salutationOf(
  tenant: DemoTenant,
  L: LocalePack,
  kind: SalutationKind,
): { code: string | null; title: string | null } {
  const options = tenant.salutations?.options;
  const defaults: Record<SalutationKind, string> = { female: '0001', male: '0002', company: '0003' };
  const titleWords: Record<Exclude<SalutationKind, 'company'>, string[]> = {
    female: ['frau', 'ms', 'mrs'],
    male: ['herr', 'mr'],
  };
  if (!options || options.length === 0) return { code: defaults[kind], title: L.salutations[kind] };
  const option =
    kind === 'company'
      ? options.find((o) => o.isCompany)
      : options.find(
          (o) =>
            !o.isCompany &&
            Object.values(o.title ?? {}).some((t) => titleWords[kind].includes(String(t).toLowerCase())),
        );
  if (!option) return { code: null, title: null };
  return {
    code: option.code,
    title: option.title?.[tenant.defaultLocale] ?? option.title?.['en-GB'] ?? option.code,
  };
}

const phone = (ctx: SeedContext) => `${ctx.L.phonePrefix}${ctx.rng.digits(3)}`;

/** Adds a private person; returns the new business partner number. */
export function addPerson(
  ctx: SeedContext,
  person: Omit<PersonSeed, 'emailLocal'>,
  email: string | null,
  details: BusinessPartnerDetails = {},
): string {
  const bp = ctx.numbers.businessPartner();
  const salutation = salutationOf(ctx.tenant, ctx.L, person.gender);
  ctx.data.businessPartners.push({
    bp_number: bp,
    salutation_code: salutation.code,
    first_name: person.firstName,
    last_name1: person.lastName,
    company1: null,
    street: person.street,
    street_number: person.streetNumber,
    zipcode: person.zipcode,
    city: person.city,
    country_code: ctx.L.countryCode,
    email_address: email,
    phone_number: phone(ctx),
    date_of_birth: person.dateOfBirth,
    details: {
      salutation: salutation.title,
      listOfCommunication: email
        ? [{ communicationType: 'WW', communicationDefault: true, communicationValue: email }]
        : [],
      status: 'active',
      confirmed: true,
      ...details,
    },
  });
  return bp;
}

function addCompany(ctx: SeedContext): string {
  const { L, domain } = ctx;
  const bp = ctx.numbers.businessPartner();
  const salutation = salutationOf(ctx.tenant, L, 'company');
  ctx.data.businessPartners.push({
    bp_number: bp,
    salutation_code: salutation.code,
    first_name: null,
    last_name1: null,
    company1: L.company.company,
    street: L.company.street,
    street_number: L.company.streetNumber,
    zipcode: L.company.zipcode,
    city: L.company.city,
    country_code: L.countryCode,
    email_address: `procurement@${domain}`,
    phone_number: phone(ctx),
    date_of_birth: null,
    details: {
      salutation: salutation.title,
      department: L.company.department,
      addressLine1: `${L.third.firstName} ${L.third.lastName}`,
      listOfCommunication: [
        { communicationType: 'WW', communicationDefault: true, communicationValue: `procurement@${domain}` },
      ],
      status: 'active',
      confirmed: true,
    },
  });
  return bp;
}

export const businessPartners: SeedModule = {
  name: 'businessPartners',
  build(ctx) {
    const { L, today } = ctx;
    const persona = (
      person: Omit<PersonSeed, 'emailLocal'>,
      email: string,
      details?: BusinessPartnerDetails,
    ): LoginPersona => ({
      bp: addPerson(ctx, person, email, details),
      email,
      person,
    });
    const email = (person: PersonSeed) => `${person.emailLocal}@${ctx.domain}`;
    // Holiday redirect (§4): the main persona is away, a holiday address valid until after today.
    const main = persona(L.main, email(L.main), {
      bpHolidayAddress: [
        {
          validFrom: fromDay(addDays(today, -4)),
          validTo: fromDay(addDays(today, 10)),
          street: L.holidayAddress.street,
          streetNumber: L.holidayAddress.streetNumber,
          zipcode: L.holidayAddress.zipcode,
          city: L.holidayAddress.city,
          countryCode: L.countryCode,
        },
      ],
    });
    const second = persona(L.second, email(L.second));
    const third = persona(L.third, email(L.third), { jobTitle: null });
    const relative = {
      bp: addPerson(ctx, L.relative, null, { academicYear: fromDay(today).slice(0, 4) }),
      person: L.relative,
    };
    const company: LoginPersona = {
      bp: addCompany(ctx),
      email: `procurement@${ctx.domain}`,
      person: L.third,
    };
    const demo = persona(L.demo, SHARED_DEMO_EMAIL);
    ctx.handles.personas = { main, second, third, relative, company, demo };
  },
};
