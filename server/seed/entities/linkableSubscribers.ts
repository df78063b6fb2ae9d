/**
 * Subscribers without an account, to be linked through the link-subscription flow (order number,
 * last name and zip code). Their rows go to the business-partner and subscription tables.
 */
import type { SeedModule } from '../context';
import { addDays, fromDay } from '../dates';
import { addPerson } from './businessPartners';
import { type OrderStatus, addSubscription, allRoles } from './subscriptions';

const STATUSES: OrderStatus[] = ['A', 'A', 'AK', 'I', 'IU', 'A'];

export const linkableSubscribers: SeedModule = {
  name: 'linkableSubscribers',
  build(ctx) {
    const { L, rng, today } = ctx;
    for (const status of STATUSES) {
      const female = rng.chance(0.5);
      const place = rng.pick(L.places);
      const bp = addPerson(
        ctx,
        {
          gender: female ? 'female' : 'male',
          firstName: rng.pick(female ? L.femaleFirstNames : L.maleFirstNames),
          lastName: rng.pick(L.lastNames),
          street: rng.pick(L.streets),
          streetNumber: String(rng.int(1, 120)),
          zipcode: place.zipcode,
          city: place.city,
          dateOfBirth: fromDay(addDays(today, -rng.int(20 * 365, 80 * 365))),
        },
        null,
      );
      const pub = rng.pick(ctx.catalogue.all);
      const startedDaysAgo = rng.int(60, 1_200);
      addSubscription(ctx, {
        pub,
        mix: pub.kind === 'digital' ? 'DE' : 'PR',
        status,
        roles: allRoles(bp),
        orderedDaysAgo: startedDaysAgo + 10,
        validFrom: addDays(today, -startedDaysAgo),
        validTo: status === 'I' ? addDays(today, -rng.int(5, 50)) : status === 'AK' ? addDays(today, rng.int(10, 90)) : null,
        details:
          status === 'IU'
            ? { currentSuspension: { suspendedFromDate: fromDay(addDays(today, -rng.int(1, 20))), suspendedToDate: null } }
            : status === 'A'
              ? {}
              : { isCancelable: false },
        payments: { count: 3 },
        deliveredIssues: 4,
      });
    }
  },
};
