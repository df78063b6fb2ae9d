/**
 * Address changes (account-flows.md §2 "Addresses", §3 business partner, §4 "Address change timing",
 * §5 address form, §6 "Goods recipient determines the affected physical subscriptions", §7, §8).
 * The partner's address is one record: a change of the goods recipient's address reaches every
 * subscription delivered to that partner. A dated change waits in future_addresses until its day
 * (server/jobs/dueChanges.ts applies it); fields the tenant does not let subscribers change are
 * refused (they need the contact form).
 */
import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import type { PostalAddress, SubscriptionPartner } from '../../schemas/generated/account-changes';
import type { AddressChangeRequest } from '../../schemas/generated/address-change-request';
import { addressErrors, supportedCountries, type AddressInput } from '../../engine/domain/addressRules';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import { addDaysIso } from '../../engine/domain/holidayService';
import {
  AFTER_TERM_END,
  afterTermEndMessage,
  issuesWithinTerm,
  lastDayOfTerm,
} from '../../engine/domain/subscriptionTerm';
import { badRequest, HttpError, notFound } from '../http/errors';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import { listIssuesOnSale } from '../store/issueCalendarStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import {
  futureAddressesOf,
  lockPartnerRecord,
  partnersOfSubscription,
  updatePartner,
  upsertFutureAddress,
  type PartnerRow,
} from '../store/accountChangeStore';
import { refuse, requireCapability } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import { companySalutations, recipientsInLanguages, type AccountCaller } from '../account/accountContext';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import { changeMail, mailWord } from '../account/changeMails';
import { formatDate } from '../../engine/domain/dates';
import { addressLines } from '../../engine/domain/addressFormat';
import { countryName } from '../../engine/domain/countryNames';
import { postcodeAsWritten } from '../../engine/domain/addressRules';
import { utcDay } from '../../engine/domain/dates';

/** Fields kept in the partner's `details` rather than in columns. */
const DETAIL_FIELDS = [
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'streetNumberSuffix',
  'jobTitle',
  'department',
  'company2',
] as const;
const ADDRESS_FIELDS = [
  'salutationCode',
  'firstName',
  'lastName1',
  'company1',
  'company2',
  'jobTitle',
  'department',
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'street',
  'streetNumber',
  'streetNumberSuffix',
  'zipcode',
  'city',
  'countryCode',
  'emailAddress',
  'phoneNumber',
  'dateOfBirth',
] as const;
type Field = (typeof ADDRESS_FIELDS)[number];

/** The fields of where a partner lives, as opposed to who it is and how to reach it. */
const LOCATION_FIELDS = [
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'street',
  'streetNumber',
  'streetNumberSuffix',
  'zipcode',
  'city',
  'countryCode',
] as const satisfies readonly Field[];

const LINE_FIELDS = ['addressLine1', 'addressLine2', 'addressLine3'] as const satisfies readonly Field[];
const STREET_FIELDS = ['street', 'streetNumber', 'streetNumberSuffix'] as const satisfies readonly Field[];

/**
 * Which fields the tenant lets subscribers change (§5; the rest needs the contact form). Address
 * lines only with the address-lines feature (§5 "with address lines supported"): the form has none
 * without it, so a line sent anyway could never be taken off again.
 */
function lockedFields(tenant: ServerTenant, linesOn: boolean): Set<Field> {
  const c = tenant.addressChange;
  const locked = new Set<Field>();
  if (!linesOn) for (const f of ['addressLine1', 'addressLine2', 'addressLine3'] as const) locked.add(f);
  if (!c.allowNameChange)
    for (const f of ['salutationCode', 'firstName', 'lastName1', 'company1', 'company2'] as const)
      locked.add(f);
  if (!c.allowCountryChange) locked.add('countryCode');
  if (!c.allowEmailChange) locked.add('emailAddress');
  if (!c.allowPhoneChange) locked.add('phoneNumber');
  if (!c.allowDateOfBirthChange) locked.add('dateOfBirth');
  return locked;
}

function currentValues(row: PartnerRow): Record<Field, string | null> {
  const d = row.details as Record<string, string | null | undefined>;
  return {
    salutationCode: row.salutationCode,
    firstName: row.firstName,
    lastName1: row.lastName1,
    company1: row.company1,
    company2: d.company2 ?? null,
    jobTitle: d.jobTitle ?? null,
    department: d.department ?? null,
    addressLine1: d.addressLine1 ?? null,
    addressLine2: d.addressLine2 ?? null,
    addressLine3: d.addressLine3 ?? null,
    street: row.street,
    streetNumber: row.streetNumber,
    streetNumberSuffix: d.streetNumberSuffix ?? null,
    zipcode: row.zipcode,
    city: row.city,
    countryCode: row.countryCode,
    emailAddress: row.emailAddress,
    phoneNumber: row.phoneNumber,
    dateOfBirth: row.dateOfBirth,
  };
}

/**
 * Names a partner's details as they are now, with its dated changes: the form sends it back
 * (`basedOn`), and a change made on other details than these is refused rather than written over
 * them (a window opened before another saved, the order system's write meanwhile). The spec's §5
 * form sends every field; without this, the older window's fields would win unseen
 * (docs/subscribers.md, the addresses).
 */
function addressVersionOf(values: Record<Field, string | null>, future: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([ADDRESS_FIELDS.map((field) => values[field]), future]))
    .digest('hex')
    .slice(0, 16);
}

const blankToNull = (value: string | null | undefined) =>
  value == null || value.trim() === '' ? null : value.trim();

function postal(values: Record<Field, string | null>): PostalAddress {
  const {
    salutationCode,
    firstName,
    lastName1,
    company1,
    addressLine1,
    addressLine2,
    addressLine3,
    street,
    streetNumber,
    streetNumberSuffix,
    zipcode,
    city,
    countryCode,
  } = values;
  return {
    salutationCode,
    firstName,
    lastName1,
    company1,
    addressLine1,
    addressLine2,
    addressLine3,
    street,
    streetNumber,
    streetNumberSuffix,
    zipcode,
    city,
    countryCode,
  };
}

export function createAddressChange(deps: { db: Database; mailFrom: string; now: () => Date }) {
  const { db } = deps;

  async function subscriptionOf(tx: Queryable, caller: AccountCaller, id: string): Promise<Subscription> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
      locale: caller.locale,
    });
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    requireCapability('addressChange', s, caller.tenant);
    return s;
  }

  async function view(
    tx: Queryable,
    tenant: ServerTenant,
    s: Subscription,
    row: PartnerRow,
    today: string,
  ): Promise<SubscriptionPartner> {
    const values = currentValues(row);
    const future = await futureAddressesOf(tx, tenant.id, row.bpNumber, today);
    const partner: SubscriptionPartner = {
      bpNumber: row.bpNumber,
      roles: row.roles as SubscriptionPartner['roles'],
      address: postal(values),
      company2: values.company2,
      jobTitle: values.jobTitle,
      department: values.department,
      emailAddress: row.emailAddress,
      phoneNumber: row.phoneNumber,
      dateOfBirth: row.dateOfBirth,
      // A stored change keeps its column fields at the top and the others under `details`.
      futureAddresses: future.map((f) => {
        const { details, ...columns } = f.address as Partial<Record<Field, string | null>> & {
          details?: Partial<Record<Field, string | null>>;
        };
        return { validFrom: f.validFrom, address: postal({ ...values, ...columns, ...details }) };
      }),
      editable: row.mine,
      addressVersion: addressVersionOf(values, future),
    };
    // §5: the warning for 'as soon as possible' needs the goods recipient's next printed issue.
    if (row.roles.includes('WE') && (s.mixType === 'PR' || s.mixType === 'KO')) {
      // None after the subscription's end (engine/domain/subscriptionTerm.ts).
      const [next] = issuesWithinTerm(
        await listIssuesOnSale(tx, tenant.id, s.publication, {
          dateFrom: addDaysIso(today, 1),
          dateTo: addDaysIso(today, 120),
        }),
        lastDayOfTerm(s),
      );
      partner.nextPhysicalIssue = next
        ? { issueNumber: next.issueNumber ?? null, dateOfFirstShipping: next.dateOfFirstShipping ?? null }
        : null;
    }
    return partner;
  }

  return {
    /**
     * GET /subscriptions/{id}/business-partners: one entry per partner with its roles (§2 Addresses),
     * only the partners the account speaks for: a gift's recipient does not see the giver's address.
     */
    async partners(caller: AccountCaller, id: string): Promise<SubscriptionPartner[]> {
      const s = await subscriptionOf(db, caller, id);
      const today = utcDay(deps.now());
      const rows = (await partnersOfSubscription(db, caller.tenant.id, s.id, caller.user.id)).filter(
        (row) => row.mine,
      );
      return Promise.all(rows.map((row) => view(db, caller.tenant, s, row, today)));
    },

    /** GET /subscriptions/{id}/supported-countries?role (§7). */
    async countries(caller: AccountCaller, id: string, role: string): Promise<string[]> {
      await subscriptionOf(db, caller, id);
      return supportedCountries(caller.tenant.defaultLocale, [role]);
    },

    /** POST /subscriptions/{id}/business-partners/{bpNumber}: every §5 rule, then at once or from the chosen day. */
    async change(
      caller: AccountCaller,
      id: string,
      bpNumber: string,
      body: AddressChangeRequest,
    ): Promise<SubscriptionPartner> {
      const { tenant } = caller;
      const today = utcDay(deps.now());
      return db.transaction(async (tx) => {
        const s = await subscriptionOf(tx, caller, id);
        const partnerOf = async () =>
          (await partnersOfSubscription(tx, tenant.id, s.id, caller.user.id)).find(
            (p) => p.bpNumber === bpNumber,
          );
        const judged = (row: PartnerRow | undefined): PartnerRow => {
          if (!row) throw notFound('This business partner has no role on this subscription.');
          if (!row.mine)
            throw refuse.notAllowed('You cannot change the address of a partner you do not speak for.');
          return row;
        };
        judged(await partnerOf());
        // Read and judged again once held: what another change committed meanwhile (a new address,
        // a role or link taken away) is what this one is judged on.
        await lockPartnerRecord(tx, tenant.id, bpNumber);
        const row = judged(await partnerOf());
        const current = currentValues(row);
        if (
          body.basedOn !== undefined &&
          body.basedOn !== addressVersionOf(current, await futureAddressesOf(tx, tenant.id, bpNumber, today))
        )
          throw new HttpError(
            409,
            'address_changed_meanwhile',
            'These details were changed meanwhile. Please check them as they are now and save again.',
          );
        const fields: Record<string, string> = {};
        const linesOn = isFeatureOn(tenant, 'address-lines', s.publication);
        const locked = lockedFields(tenant, linesOn);
        const next: Record<Field, string | null> = { ...current };
        // §5 "with address lines supported": the lines are where a partner lives, in place of street
        // and number. A change of the lines that does not give the street as well (the form gives it,
        // empty, once it moved it into a line) leaves none behind beside them.
        const givesLines = LINE_FIELDS.some(
          (field) =>
            field in body &&
            blankToNull((body as Record<string, string | null | undefined>)[field]) !==
              blankToNull(current[field]),
        );
        const streetGoes = linesOn && givesLines;
        for (const field of ADDRESS_FIELDS) {
          if (!(field in body)) {
            if (streetGoes && (STREET_FIELDS as readonly string[]).includes(field)) next[field] = null;
            continue;
          }
          let value = blankToNull((body as Record<string, string | null | undefined>)[field]);
          // A UK postcode as it is written (capitals, one space), whichever way it was typed.
          if (field === 'zipcode' && value)
            value = postcodeAsWritten(value, 'countryCode' in body ? body.countryCode : current.countryCode);
          if (value === blankToNull(current[field])) continue;
          if (locked.has(field)) fields[field] = 'not_editable';
          next[field] = value;
        }
        const salutations = tenant.salutations?.options ?? [];
        if (
          next.salutationCode !== current.salutationCode &&
          next.salutationCode &&
          !salutations.some((x) => x.code === next.salutationCode && x.isUserSelectable !== false)
        ) {
          fields.salutationCode = 'invalid';
        }
        const validFrom = body.validFrom ?? null;
        if (validFrom && !tenant.addressChange.timedChanges) fields.validFrom = 'not_editable';
        const errors = addressErrors(
          { ...(next as AddressInput), validFrom },
          {
            addressLines: linesOn,
            companySalutations: companySalutations(tenant),
            emailRequired: Boolean(current.emailAddress),
            today,
            // A dated change may not begin after the end of the subscription it is made from.
            termEnd: lastDayOfTerm(s),
            // What the change leaves as the order system sent it is not the subscriber's to mend.
            onRecord: current as AddressInput,
          },
        );
        for (const error of errors) fields[error.field] ??= error.code;
        // The partner's e-mail address is the address on record that sign-in links go to: it may only
        // become an address proved by a mailbox, the account's own (docs/architecture.md "Sign-in
        // safety"). Judged after the §5 rules, so an address too long is said as such first.
        if (
          next.emailAddress !== current.emailAddress &&
          next.emailAddress &&
          normalizeEmail(next.emailAddress) !== normalizeEmail(caller.user.email)
        ) {
          fields.emailAddress ??= 'not_verified';
        }
        if (
          next.countryCode &&
          next.countryCode !== current.countryCode &&
          !supportedCountries(tenant.defaultLocale, row.roles).includes(next.countryCode)
        )
          fields.countryCode ??= 'not_supported';
        if (Object.keys(fields).length > 0) {
          const end = lastDayOfTerm(s);
          throw badRequest(
            'validation_failed',
            fields.validFrom === AFTER_TERM_END && end
              ? afterTermEndMessage(end)
              : 'Please check the address.',
            { fields },
          );
        }

        const changed = ADDRESS_FIELDS.filter((field) => next[field] !== current[field]);
        if (changed.length > 0) {
          const split = (fields: readonly Field[]) => ({
            columns: Object.fromEntries(
              fields
                .filter((f) => !(DETAIL_FIELDS as readonly string[]).includes(f))
                .map((f) => [f, next[f]]),
            ),
            details: Object.fromEntries(
              fields.filter((f) => (DETAIL_FIELDS as readonly string[]).includes(f)).map((f) => [f, next[f]]),
            ),
          });
          // A move is a whole place to live: every field of where, not only those that differ
          // today. Dated, so a change made meanwhile (a house-number suffix now) does not end up in
          // it; at once, so the change holds the street it kept when an earlier change of the
          // street is rejected after it (updatePartner writes each field given as the change's).
          const moves = changed.some((f) => (LOCATION_FIELDS as readonly string[]).includes(f));
          const place = moves ? [...new Set<Field>([...changed, ...LOCATION_FIELDS])] : changed;
          // The change is the portal's on top of the order system's record until the order system
          // answers its event; a dated one keeps the event, so its day's write belongs to it too.
          // The address lines only where the form has them (lockedFields), and no key of
          // `details` the record has not.
          const kept = (f: Field) =>
            !locked.has(f) && (next[f] != null || !(DETAIL_FIELDS as readonly string[]).includes(f));
          // Every field the change writes is in its event's values: the order system that applies
          // them holds what the portal shows as this change's, also the fields of a move it kept.
          const written = validFrom ? place : place.filter((f) => changed.includes(f) || kept(f));
          if (!validFrom) {
            const atOnce = split(written);
            await updatePartner(tx, tenant.id, bpNumber, { ...atOnce.columns, details: atOnce.details });
          }
          const eventId = await recordEvent(tx, tenant.id, 'address.changed', {
            userId: caller.user.id,
            bpNumber,
            subscriptionId: s.id,
            validFrom,
            fields: [...changed],
            // What the order system applies, a dated change on its day: its record shows a dated one
            // only from then (docs/going-live.md "Whose data is it").
            // The street the lines replace is named too, null, also a part the record never had.
            values: Object.fromEntries(
              [...new Set<Field>([...written, ...(streetGoes ? STREET_FIELDS : [])])].map((f) => [
                f,
                next[f],
              ]),
            ),
          });
          const dated = split(place);
          if (validFrom)
            await upsertFutureAddress(tx, tenant.id, {
              bpNumber,
              validFrom,
              address: { ...dated.columns, details: dated.details },
              userId: caller.user.id,
              eventId,
            });
          // As the screens write it (engine/domain/addressFormat.ts), the country by its name in
          // the mail's language.
          const mailIn = (locale: typeof caller.locale) =>
            changeMail('address', locale, {
              tenant: tenant.name,
              when: validFrom
                ? mailWord(locale, 'from', { date: formatDate(validFrom, locale) })
                : mailWord(locale, 'asap'),
              address: [...addressLines(next), next.countryCode ? countryName(next.countryCode, locale) : '']
                .filter(Boolean)
                .join('\n'),
            });
          // The account and the address on record both hear of it: a change made by an account that
          // linked the partner by knowledge alone does not go unnoticed by the partner, who reads
          // it in the publisher's language.
          for (const { to, locale } of recipientsInLanguages(
            { email: caller.user.email, locale: caller.locale },
            { email: current.emailAddress, locale: tenant.defaultLocale },
          ))
            await enqueueMail(tx, { tenantId: tenant.id, to, from: deps.mailFrom, ...mailIn(locale) });
        }
        const updated = (await partnersOfSubscription(tx, tenant.id, s.id, caller.user.id)).find(
          (p) => p.bpNumber === bpNumber,
        )!;
        return view(tx, tenant, s, updated, today);
      });
    },
  };
}

export type AddressChange = ReturnType<typeof createAddressChange>;
