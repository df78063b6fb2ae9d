/**
 * Demo data of the holiday service, payment details, complaint, address and opt-in flows
 * (migration 009): the personas' holiday services as planned services (a redirect, a running break, a
 * planned switch to digital), masked bank accounts, an existing complaint, a future-dated address,
 * and opt-ins on, off and pending. Draws nothing from the generator.
 */
import type { Locale } from '../../../engine/domain/locales';
import { type SeedModule, need } from '../context';
import { addDays, fromDay } from '../dates';
import { insertTables } from '../insertRows';
import { issueSpanBetween } from './publications';

export interface HolidayServiceSeedRow {
  subscription_id: string;
  type: 'redirect' | 'break' | 'download';
  date_from: string;
  date_to: string;
  issue_number_from: string | null;
  issue_number_to: string | null;
  first_shipping: string | null;
  address: Record<string, unknown> | null;
}

export interface OptInSeedRow {
  bp_number: string;
  type: string;
  description: Partial<Record<Locale, string>>;
  value: boolean;
  pending: boolean;
}

export interface AccountChangeData {
  holidayServices: HolidayServiceSeedRow[];
  optIns: OptInSeedRow[];
  complaints: Array<{
    subscription_id: string;
    email: string;
    issue: string;
    reason: string;
    compensation: string;
    expected_by: string;
  }>;
  futureAddresses: Array<{ bp_number: string; valid_from: string; address: Record<string, unknown> }>;
}

const OPT_IN_TYPES: Array<[string, string, string]> = [
  ['NEWSLETTER', 'E-Mail-Newsletter mit Neuigkeiten und Angeboten', 'E-mail newsletter with news and offers'],
  ['PHONE', 'Angebote per Telefon', 'Offers by phone'],
  ['POST', 'Angebote per Post', 'Offers by post'],
  ['PARTNER', 'Angebote ausgewählter Partner', 'Offers from selected partners'],
];

export const accountChanges: SeedModule = {
  name: 'accountChanges',
  build(ctx) {
    const { today } = ctx;
    const { main, second, demo } = need(ctx, 'personas');
    const { paging, holidayDownload, holidayDownloadDates } = need(ctx, 'featuredSubscriptions');
    const data = ctx.data as typeof ctx.data & Partial<AccountChangeData>;
    const pubOf = (subscriptionId: string) =>
      ctx.catalogue.all.find(
        (p) => p.publication === ctx.data.subscriptions.find((s) => s.id === subscriptionId)?.publication,
      )!;

    // The holiday services the subscriptions show (subscriptions.ts) as planned services.
    data.holidayServices = [];
    const mainPartner = ctx.data.businessPartners.find((bp) => bp.bp_number === main.bp);
    const holidayAddress = mainPartner?.details.bpHolidayAddress?.find((h) => h.validTo > fromDay(today));
    if (holidayAddress) {
      // A partner's holiday address redirects every subscription delivered to it (subscriptions.ts).
      for (const redirected of ctx.data.subscriptions.filter(
        (x) => x.details.activeHolidayServiceType === 'redirect',
      )) {
        const pub = pubOf(redirected.id);
        // It began before today; whether it can still be cancelled is its first issue's shipping
        // day (§4 "redirect while its first issue has not shipped"), as for one booked in the portal.
        const from = holidayAddress.validFrom;
        // Its issues lie inside its dates, by the rule the server books with.
        const span = issueSpanBetween(ctx, pub, from, holidayAddress.validTo);
        data.holidayServices.push({
          subscription_id: redirected.id,
          type: 'redirect',
          date_from: from,
          date_to: holidayAddress.validTo,
          issue_number_from: span.issueNumberFrom,
          issue_number_to: span.issueNumberTo,
          first_shipping: span.firstShipping ?? from,
          address: {
            firstName: mainPartner?.first_name ?? null,
            lastName1: mainPartner?.last_name1 ?? null,
            street: holidayAddress.street ?? null,
            streetNumber: holidayAddress.streetNumber ?? null,
            zipcode: holidayAddress.zipcode ?? null,
            city: holidayAddress.city ?? null,
            countryCode: holidayAddress.countryCode ?? null,
          },
        });
      }
    }
    const suspended = ctx.data.subscriptions.find(
      (s) =>
        s.order_status === 'IU' &&
        ctx.data.subscriptionRoles.some((r) => r.subscription_id === s.id && r.bp_number === second.bp),
    );
    if (suspended?.details.currentSuspension?.suspendedToDate) {
      const pub = pubOf(suspended.id);
      const { suspendedFromDate, suspendedToDate } = suspended.details.currentSuspension;
      // The paused issues are those on sale inside the pause (a pause of 16.11.–16.12.2026
      // had listed 12/2026 – 1/2027, its last issue taken as the first one after the end less a week).
      const span = issueSpanBetween(ctx, pub, suspendedFromDate, suspendedToDate);
      data.holidayServices.push({
        subscription_id: suspended.id,
        type: 'break',
        date_from: suspendedFromDate,
        date_to: suspendedToDate,
        issue_number_from: span.issueNumberFrom,
        issue_number_to: span.issueNumberTo,
        first_shipping: suspendedFromDate,
        address: null,
      });
    }
    const download = holidayDownload.row.details.currentChangeInfo;
    if (download) {
      const { from, to } = holidayDownloadDates;
      const span = issueSpanBetween(ctx, pubOf(holidayDownload.id), from, to);
      data.holidayServices.push({
        subscription_id: holidayDownload.id,
        type: 'download',
        date_from: from,
        date_to: to,
        issue_number_from: span.issueNumberFrom,
        issue_number_to: span.issueNumberTo,
        first_shipping: from,
        address: null,
      });
    }

    // Masked accounts of the bank-paid subscriptions (only masked data is kept, server/payment-method-change/).
    for (const s of ctx.data.subscriptions) {
      const kind = s.details.paymentDetails?.paymentMethod;
      if (kind !== 'sepa' && kind !== 'direct_debit') continue;
      const ag = ctx.data.subscriptionRoles.find((r) => r.subscription_id === s.id && r.role === 'AG');
      const holder = ctx.data.businessPartners.find((bp) => bp.bp_number === ag?.bp_number);
      const name = holder?.company1 ?? [holder?.first_name, holder?.last_name1].filter(Boolean).join(' ');
      // An account in the holder's country: a British subscriber's is a British one. A SEPA mandate
      // names an IBAN; a direct debit the domestic account, number, bank code and bank
      // (account-flows.md §3 "Payment details").
      const british = holder?.country_code === 'GB';
      s.details.paymentAccount =
        kind === 'sepa'
          ? {
              debitAccountHolder: name,
              iban: `${british ? 'GB' : 'DE'}••••••••••••••••${s.order_number.slice(-4)}`,
              bic: british ? 'NWBKGB2LXXX' : 'COBADEFFXXX',
            }
          : {
              debitAccountHolder: name,
              debitAccountNumber: `••••••${s.order_number.slice(-4)}`,
              debitBankCode: british ? '601613' : '37040044',
              debitBankName: british ? 'NatWest' : 'Commerzbank',
            };
    }

    // Opt-ins of every partner: the demo login and the main persona with some on, one pending.
    data.optIns = [];
    for (const bp of ctx.data.businessPartners) {
      for (const [type, de, en] of OPT_IN_TYPES) {
        const on =
          (bp.bp_number === main.bp && type === 'NEWSLETTER') ||
          (bp.bp_number === demo.bp && type === 'PHONE');
        const pending = bp.bp_number === main.bp && type === 'POST';
        data.optIns.push({
          bp_number: bp.bp_number,
          type,
          description: { 'de-DE': de, 'en-GB': en },
          value: on,
          pending,
        });
      }
    }

    // An existing complaint about the main persona's latest print issue (§8: a complaint exists).
    const latest = ctx.data.deliveredIssues
      .filter((i) => i.subscription_id === paging.id)
      .sort((a, b) => b.date_of_first_sale.localeCompare(a.date_of_first_sale))[0];
    data.complaints = latest
      ? [
          {
            subscription_id: paging.id,
            email: main.email,
            issue: latest.issue,
            reason: 'damaged',
            compensation: 'replacement',
            expected_by: fromDay(addDays(today, 3)),
          },
        ]
      : [];

    // The main persona moves in a month: a future-dated address (§2 "a dialog listing future-dated addresses").
    data.futureAddresses = mainPartner
      ? [
          {
            bp_number: main.bp,
            valid_from: fromDay(addDays(today, 30)),
            // The whole place, as the portal stores a dated move (server/address-change).
            address: {
              street: mainPartner.street,
              streetNumber: String(Number.parseInt(mainPartner.street_number, 10) + 12 || 1),
              zipcode: mainPartner.zipcode,
              city: mainPartner.city,
              countryCode: mainPartner.country_code,
              details: {
                addressLine1: null,
                addressLine2: null,
                addressLine3: null,
                streetNumberSuffix: null,
              },
            },
          },
        ]
      : [];
  },
  insert: async (tx, dataSet) => {
    const data = dataSet as typeof dataSet & Partial<AccountChangeData>;
    await insertTables(
      {
        table: 'holiday_services',
        columns:
          'subscription_id text, type text, date_from date, date_to date, issue_number_from text, issue_number_to text, first_shipping date, address jsonb',
        rows: () => data.holidayServices ?? [],
      },
      {
        table: 'opt_ins',
        columns: 'bp_number text, type text, description jsonb, value boolean, pending boolean',
        rows: () => data.optIns ?? [],
      },
      {
        table: 'future_addresses',
        columns: 'bp_number text, valid_from date, address jsonb',
        rows: () => data.futureAddresses ?? [],
      },
    )(tx, dataSet);
    if (data.complaints?.length) {
      await tx.query(
        `insert into complaints (tenant_id, subscription_id, user_id, issue, reason, compensation, expected_by)
         select $1, c.subscription_id, u.id, c.issue, c.reason, c.compensation, c.expected_by
           from jsonb_to_recordset($2::jsonb) as c(subscription_id text, email text, issue text, reason text, compensation text, expected_by date)
           join users u on u.tenant_id = $1 and u.email = c.email`,
        [dataSet.tenantId, JSON.stringify(data.complaints)],
      );
    }
  },
};
