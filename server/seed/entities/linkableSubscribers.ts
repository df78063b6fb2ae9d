/**
 * Subscribers without an account, to be linked through the link-subscription flow (order number,
 * last name and zip code). Their rows go to the business-partner and subscription tables.
 */
import type { SeedContext, SeedModule } from '../context';
import { addDays, fromDay } from '../dates';
import { addPerson } from './businessPartners';
import { type OrderStatus, addSubscription, allRoles } from './subscriptions';

const STATUSES: OrderStatus[] = ['A', 'A', 'AK', 'I', 'IU', 'A'];
/**
 * The last two have an e-mail address on record (the order system knows it; they have no portal
 * account yet): the anonymous partial logins mail their sign-in link there (docs/architecture.md
 * "Sign-in safety"). The others have none, for the `no_email_on_record` answers.
 */
const WITH_EMAIL_ON_RECORD = new Set([4, 5]);

/** An e-mail local part from a name: lower-case ASCII letters and dots. */
const emailLocal = (...names: string[]) =>
  names
    .map((name) =>
      name
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/ß/g, 'ss')
        .toLowerCase()
        .replace(/[^a-z]+/g, ''),
    )
    .join('.');

/** One subscriber without an account, with its subscription (and an address on record, or none). */
function addLinkable(ctx: SeedContext, index: number, status: OrderStatus, withEmail: boolean): void {
  const { L, rng, today } = ctx;
  const female = rng.chance(0.5);
  const place = rng.pick(L.places);
  const person = {
    gender: female ? ('female' as const) : ('male' as const),
    firstName: rng.pick(female ? L.femaleFirstNames : L.maleFirstNames),
    lastName: rng.pick(L.lastNames),
    street: rng.pick(L.streets),
    streetNumber: String(rng.int(1, 120)),
    zipcode: place.zipcode,
    city: place.city,
    dateOfBirth: fromDay(addDays(today, -rng.int(20 * 365, 80 * 365))),
  };
  const email = withEmail ? `${emailLocal(person.firstName, person.lastName)}.${index}@${ctx.domain}` : null;
  const bp = addPerson(ctx, person, email);
  const pub = rng.pick(ctx.catalogue.all);
  const startedDaysAgo = rng.int(60, 1_200);
  addSubscription(ctx, {
    pub,
    mix: pub.kind === 'digital' ? 'DE' : 'PR',
    status,
    roles: allRoles(bp),
    orderedDaysAgo: startedDaysAgo + 10,
    validFrom: addDays(today, -startedDaysAgo),
    validTo:
      status === 'I'
        ? addDays(today, -rng.int(5, 50))
        : status === 'AK'
          ? addDays(today, rng.int(10, 90))
          : null,
    details:
      status === 'IU'
        ? {
            currentSuspension: {
              suspendedFromDate: fromDay(addDays(today, -rng.int(1, 20))),
              suspendedToDate: null,
            },
          }
        : status === 'A'
          ? {}
          : { isCancelable: false },
    payments: { count: 3 },
    deliveredIssues: 4,
  });
}

export const linkableSubscribers: SeedModule = {
  name: 'linkableSubscribers',
  build(ctx) {
    for (const [index, status] of STATUSES.entries())
      addLinkable(ctx, index, status, WITH_EMAIL_ON_RECORD.has(index));
  },
};

/**
 * Three more, cancelled (AK, so no anonymous cancellation picks them), each with an address on
 * record and no account: the link-subscription journeys link them through the link mailed to that
 * address (docs/architecture.md "Sign-in safety"). Last in SEED_MODULES, so that what they draw
 * changes no other module's rows.
 */
export const linkableSubscribersWithAddress: SeedModule = {
  name: 'linkableSubscribersWithAddress',
  build(ctx) {
    for (const index of [6, 7, 8]) addLinkable(ctx, index, 'AK', true);
  },
};
