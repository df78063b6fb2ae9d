/**
 * A record of the order system is refused by readRecord whenever its table would refuse it
 * (docs/going-live.md "Going live with your order system" 2): no text PostgreSQL cannot store, nothing longer
 * or larger than its column holds, nothing a check constraint refuses, versions the bigint and a
 * JavaScript number both keep exactly. The import reads its lines with it, so each is one line's
 * problem there; the API's upserts answer them as 400 by pointer.
 */
import { describe, expect, it } from 'vitest';
import { orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import {
  keepLocales,
  readKey,
  readRecord,
  readVersion,
  versionNumber,
  withTenantLanguages,
} from '../../../server/operator/entities/orderSystemRecords';

const entity = (name: string) => orderSystemEntity(name)!;

const subscription = {
  version: 1,
  id: '101000123',
  orderNumber: '4000000123',
  publication: 'TAZ',
  orderStatus: 'A',
  mixType: 'PRINT',
  roles: [{ bpNumber: '1000000001', role: 'AG' }],
};
/** An offer the flows can use: a one-year renewal. Each test changes the part it is about. */
const offer = {
  version: 1,
  id: 'ABW-RENEW-12',
  publication: 'ABW',
  category: 'RENEWAL',
  paymentProvider: 'INVOICE',
  offer: { kind: 'article', texts: { 'de-DE': { description: 'Ein Jahr', title: 'Verlängern' } } },
  effect: { kind: 'extend', months: 12 },
};
const payment = {
  version: 1,
  subscriptionId: '101000123',
  id: 'P1',
  date: '2026-02-01',
  amount: '12.50',
  invoiceStatusCode: 'A',
};

/** The pointers readRecord names for a record. */
function problemsOf(name: string, record: unknown): string[] {
  const read = readRecord(entity(name), structuredClone(record));
  return read.ok ? [] : read.problems.map((p) => p.pointer);
}

/** The messages readRecord gives a record, by pointer. */
function messagesOf(name: string, record: unknown): string[] {
  const read = readRecord(entity(name), structuredClone(record));
  return read.ok ? [] : read.problems.map((p) => `${p.pointer} ${p.message}`);
}

describe('readRecord', () => {
  it('names what a field must be in words, not as its regular expression', () => {
    expect(messagesOf('subscriptions', { ...subscription, roles: [{ bpNumber: '12', role: 'AG' }] })).toEqual(
      ['/roles/0/bpNumber must be 10 digits'],
    );
    expect(messagesOf('payments', { ...payment, amount: '12.505' })).toEqual([
      '/amount must be an amount with at most 10 digits before the point and 2 after it, such as "12.50"',
    ]);
  });

  it('refuses a currency the screens, mails and invoices cannot format', () => {
    const currencyWords = 'must be a currency code of 3 capital letters, such as "EUR"';
    for (const currency of ['EURO-DOLLAR-XX', 'eur', '€', ''])
      expect(messagesOf('payments', { ...payment, currency })).toEqual([`/currency ${currencyWords}`]);
    expect(problemsOf('payments', { ...payment, currency: 'GBP' })).toEqual([]);
    expect(
      messagesOf('subscriptions', { ...subscription, details: { renewal: { orderCurrency: 'ZZZ-BAD' } } }),
    ).toEqual([`/details/renewal/orderCurrency ${currencyWords}`]);
    expect(
      problemsOf('subscriptions', { ...subscription, details: { renewal: { orderCurrency: 'EUR', x: 1 } } }),
    ).toEqual([]);
  });

  it('refuses a number JSON parsing could not keep as sent, in details too', () => {
    const read = (details: unknown) => messagesOf('subscriptions', { ...subscription, details });
    expect(read(JSON.parse('{"weight": 1e400}'))).toEqual(['/details/weight is a number too large to keep']);
    expect(read(JSON.parse('{"ids": [12345678901234567890]}'))).toEqual([
      '/details/ids/0 is a whole number too large to keep exactly: send it as a string',
    ]);
    expect(read({ ids: [9007199254740991], weight: 12.5 })).toEqual([]);
  });

  it('refuses details the screens would show broken, naming each field', () => {
    // What an export with the wrong types sends: an amount with a comma, a payment kind in words,
    // a yes for true, a count in words. Each would reach the subscription page as NaN, a text key
    // or a button the rules do not allow.
    const read = (details: unknown) => messagesOf('subscriptions', { ...subscription, details });
    expect(
      read({
        currentCyclePaidAmount: '12,50',
        paymentDetails: { paymentMethod: 'Lastschrift' },
        billingFrequency: 12,
        isCancelable: 'yes',
        mixTypeDetails: { complaintIssues: 'three' },
        renewal: { autoRenewalNextPaymentAmount: 'lots' },
        currentSuspension: { suspendedFromDate: '1.5.2026', suspendedToDate: null },
        activeHolidayServiceType: 'vacation',
      }).map((message) => message.split(' ')[0]),
    ).toEqual([
      '/details/mixTypeDetails/complaintIssues',
      '/details/isCancelable',
      '/details/paymentDetails/paymentMethod',
      '/details/billingFrequency',
      '/details/currentCyclePaidAmount',
      '/details/activeHolidayServiceType',
      '/details/currentSuspension/suspendedFromDate',
      '/details/renewal/autoRenewalNextPaymentAmount',
    ]);
    expect(read({ paymentDetails: { paymentMethod: 'bitcoin' } })).toEqual([
      '/details/paymentDetails/paymentMethod must be one of "credit_card", "sepa", "direct_debit", "paypal", "invoice", "none"',
    ]);
    // A translation carries words only: it is laid over the fields it names.
    expect(read({ translations: { 'en-GB': { isCancelable: true, displayName: 'Print' } } })).toEqual([
      '/details/translations/en-GB/isCancelable is not a field of this record',
    ]);
    expect(read({ translations: { english: { displayName: 'Print' } } }).length).toBeGreaterThan(0);
    // What the screens pass on whole has no room for other fields.
    expect(read({ mixTypeDetails: { mixTypeDesc: 'Print', colour: 'red' } })).toEqual([
      '/details/mixTypeDetails/colour is not a field of this record',
    ]);
    expect(
      read({
        displayName: 'Rhein-Bote – Print',
        isCancelable: true,
        paymentMethod: 'E',
        billingFrequency: '01',
        currentCyclePaidAmount: 12.5,
        mixTypeDetails: { mixTypeDesc: 'Print', pdfDownload: true },
        renewal: null,
        currentSuspension: null,
        translations: {
          'en-GB': { displayName: 'Rhine Messenger – Print', mixTypeDetails: { mixTypeDesc: 'Print' } },
        },
        anotherSystemsField: { kept: true },
      }),
    ).toEqual([]);
  });

  it('refuses a payment account or a pending payment method the payment details page could not show', () => {
    const read = (details: unknown) => messagesOf('subscriptions', { ...subscription, details });
    const fields = (details: unknown) => read(details).map((message) => message.split(' ')[0]);
    expect(fields({ paymentAccount: 'garbage' })).toEqual(['/details/paymentAccount']);
    expect(fields({ paymentAccount: { iban: 12345 } })).toEqual(['/details/paymentAccount/iban']);
    expect(fields({ paymentAccount: { iban: 'DE89370400440532013000', pin: '1234' } })).toEqual([
      '/details/paymentAccount/pin',
    ]);
    expect(fields({ pendingPaymentMethod: 'sepa' })).toEqual(['/details/pendingPaymentMethod']);
    expect(
      fields({ pendingPaymentMethod: { paymentMethod: 'sepa', effectiveFrom: '2026-02-30', account: [] } }),
    ).toEqual(['/details/pendingPaymentMethod/effectiveFrom', '/details/pendingPaymentMethod/account']);
    expect(
      read({
        paymentAccount: { debitAccountHolder: 'Jonas Becker', iban: 'DE89370400440532013000', bic: null },
        pendingPaymentMethod: {
          paymentMethod: 'credit_card',
          effectiveFrom: '2026-12-31',
          account: null,
        },
      }),
    ).toEqual([]);
    expect(read({ paymentAccount: null, pendingPaymentMethod: null })).toEqual([]);
  });

  it("takes an issue's words in other languages, and nothing else in their place", () => {
    const issue = { version: 1, publication: 'TAZ', issue: '2026-12', description: 'Dezember' };
    const translations = (t: unknown) => messagesOf('issues', { ...issue, translations: t });
    expect(translations({ 'en-GB': { description: 'December' } })).toEqual([]);
    expect(translations({ 'en-GB': { dateOfFirstSale: 'soon' } })).toEqual([
      '/translations/en-GB/dateOfFirstSale is not a field of this record',
    ]);
    expect(translations({ 'en-GB': { description: { text: 'December' } } })).toEqual([
      '/translations/en-GB/description must be a text or null',
    ]);
  });

  it('takes a valid record', () => {
    expect(problemsOf('subscriptions', subscription)).toEqual([]);
    expect(problemsOf('payments', payment)).toEqual([]);
  });

  it('refuses an offer whose content or effect the flows cannot use, naming the part', () => {
    const retention = {
      ...offer,
      category: 'CANCEL',
      effect: { kind: 'retain', months: 3, discountPercent: 50 },
    };
    expect(problemsOf('offers', retention)).toEqual([]);
    expect(messagesOf('offers', { ...offer, effect: { kind: 'refund' } })).toEqual([
      '/effect/kind must be one of "extend", "upgrade", "retain"',
    ]);
    expect(messagesOf('offers', { ...offer, effect: { kind: 'extend', months: 0 } })).toEqual([
      '/effect/months must be >= 1',
    ]);
    expect(problemsOf('offers', { ...offer, effect: { kind: 'upgrade', mixType: 'KO' } })).toEqual([
      '/effect/typeKey',
    ]);
    expect(problemsOf('offers', { ...offer, offer: { foo: 1 } })).toEqual([
      '/offer/kind',
      '/offer/texts',
      '/offer/foo',
    ]);
    expect(
      problemsOf('offers', {
        ...offer,
        offer: { ...offer.offer, texts: { 'de-DE': { title: 'Ohne Satz' } } },
      }),
    ).toContain('/offer/texts/de-DE/description');
    expect(
      problemsOf('offers', {
        ...offer,
        offer: { ...offer.offer, texts: { deutsch: offer.offer.texts['de-DE'] } },
      }),
    ).not.toEqual([]);
  });

  it("takes an invoice's lines and paid amount, and a payment without them as before", () => {
    const lines = [
      {
        description: 'Druckausgabe',
        translations: { 'en-GB': { description: 'Print edition' } },
        quantity: 3,
        unitPrice: '2.50',
        vatCategory: 'S',
        vatRatePercent: 7,
      },
      { description: 'Digital', unitPrice: 5, vatCategory: 'S', vatRatePercent: 19 },
    ];
    expect(problemsOf('payments', { ...payment, invoiceStatusCode: 'T', paidAmount: '5.00', lines })).toEqual(
      [],
    );
    expect(problemsOf('payments', { ...payment, paidAmount: null, lines: null })).toEqual([]);
    // A credit note: a negative amount of negative lines.
    expect(
      problemsOf('payments', {
        ...payment,
        amount: '-12.50',
        lines: lines.map((l) => ({ ...l, unitPrice: `-${l.unitPrice}` })),
      }),
    ).toEqual([]);
  });

  it("refuses lines that do not add up to the amount, and a line's category that does not fit its rate", () => {
    const line = { description: 'Druckausgabe', unitPrice: '12.50', vatCategory: 'S', vatRatePercent: 7 };
    const read = readRecord(entity('payments'), { ...payment, lines: [line, line] });
    expect(read.ok ? [] : read.problems).toEqual([
      {
        pointer: '/lines',
        message:
          'the lines add up to 25.00 (quantity × unitPrice, each rounded to the cent), the amount is 12.50: send lines whose gross amounts add up to the amount',
      },
    ]);
    expect(problemsOf('payments', { ...payment, lines: [{ ...line, vatRatePercent: 0 }] })).toEqual([
      '/lines/0/vatRatePercent',
    ]);
    expect(problemsOf('payments', { ...payment, lines: [{ ...line, vatCategory: 'Z' }] })).toEqual([
      '/lines/0/vatRatePercent',
    ]);
    expect(
      problemsOf('payments', { ...payment, lines: [{ ...line, vatCategory: 'E', vatRatePercent: 0 }] }),
    ).toEqual(['/lines/0/vatExemptionReason']);
    expect(problemsOf('payments', { ...payment, lines: [] })).toEqual(['/lines']);
  });

  it('refuses NUL and unpaired surrogates in every string and field name, at any depth', () => {
    expect(problemsOf('subscriptions', { ...subscription, mixType: 'PR\u0000' })).toEqual(['/mixType']);
    expect(problemsOf('subscriptions', { ...subscription, mixType: 'PR\ud800' })).toEqual(['/mixType']);
    expect(problemsOf('subscriptions', { ...subscription, details: { a: [{ b: 'x\udc00y' }] } })).toEqual([
      '/details/a/0/b',
    ]);
    expect(problemsOf('subscriptions', { ...subscription, details: { 'a\u0000': 1 } })).toEqual(['/details']);
    // A pair is a character like any other.
    expect(problemsOf('subscriptions', { ...subscription, mixType: 'PR \ud83d\ude00' })).toEqual([]);
    const read = readRecord(entity('subscriptions'), { ...subscription, mixType: 'x\u0000' });
    expect(read.ok || read.problems[0].message).toBe('must not contain NUL characters');
  });

  it('refuses nesting deeper than any record has', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { deep };
    expect(problemsOf('subscriptions', { ...subscription, details: deep })[0]).toMatch(
      /^\/details(\/deep)+$/,
    );
  });

  it('refuses what a check constraint or a column type refuses', () => {
    // subscriptions.id: check (length(id) > 3).
    expect(problemsOf('subscriptions', { ...subscription, id: 'F31' })).toEqual(['/id']);
    // char(10) with check (bp_number ~ '^[0-9]{10}$').
    expect(
      problemsOf('subscriptions', { ...subscription, roles: [{ bpNumber: '10000000011', role: 'AG' }] }),
    ).toEqual(['/roles/0/bpNumber']);
    // licenses.email: check (email = lower(btrim(email))); academic_year ~ '^[0-9]{2}$'.
    const licence = {
      version: 1,
      subscriptionId: '101000123',
      orderNumber: '4000000123',
      email: 'anna@example.com',
      businessPartner: {},
    };
    expect(problemsOf('licences', licence)).toEqual([]);
    expect(problemsOf('licences', { ...licence, email: 'Anna@example.com' })).toEqual(['/email']);
    expect(problemsOf('licences', { ...licence, email: ' anna@example.com' })).toEqual(['/email']);
    expect(problemsOf('licences', { ...licence, email: 'anna@example.com ' })).toEqual(['/email']);
    expect(problemsOf('licences', { ...licence, email: 'änna~x@example.com' })).toEqual([]);
    expect(problemsOf('licences', { ...licence, academicYear: '2026' })).toEqual(['/academicYear']);
    // purchase_orders.quantity: check (quantity > 0).
    const order = {
      version: 1,
      id: 'PO1',
      purchaseOrderNumber: '5880142545',
      distributionArticleNumber: '436740',
      distributionArticleDescription: 'Sonderheft',
      dateOfPurchaseOrderClient: '2026-03-13',
      invoiceStatus: 1,
      roles: [],
    };
    expect(problemsOf('purchase-orders', order)).toEqual([]);
    expect(problemsOf('purchase-orders', { ...order, quantity: 0 })).toEqual(['/quantity']);
  });

  it('refuses numbers outside their column: integer, numeric(12,2), numeric(10,2)', () => {
    const reason = { version: 1, publication: 'TAZ', code: 'PREIS', descriptions: { 'de-DE': 'Zu teuer' } };
    expect(problemsOf('cancellation-reasons', { ...reason, position: 2147483647 })).toEqual([]);
    expect(problemsOf('cancellation-reasons', { ...reason, position: 2147483648 })).toEqual(['/position']);
    expect(problemsOf('cancellation-reasons', { ...reason, position: 1e30 })).toEqual(['/position']);
    expect(problemsOf('payments', { ...payment, amount: 9999999999.99 })).toEqual([]);
    expect(problemsOf('payments', { ...payment, amount: 1e30 })).toEqual(['/amount']);
    expect(problemsOf('payments', { ...payment, amount: '12345678901.00' })).toEqual(['/amount']);
    expect(problemsOf('payments', { ...payment, amount: '12.505' })).toEqual(['/amount']);
    expect(problemsOf('payments', { ...payment, amount: '-1' })).toEqual([]);
  });

  it('refuses an offer price below 0, which no flow can ask a subscriber to pay (a credit is a payment)', () => {
    for (const price of [0, '0.00', 162, '162.00'])
      expect(problemsOf('offers', { ...offer, price })).toEqual([]);
    for (const price of [-162, '-162.00', -0.01])
      expect(problemsOf('offers', { ...offer, price })).toEqual(['/price']);
  });

  it('refuses free text longer than the screens, mails and e-invoices carry: a format, document numbers', () => {
    const long = '9'.repeat(65);
    expect(problemsOf('subscriptions', { ...subscription, mixType: '9'.repeat(64) })).toEqual([]);
    expect(problemsOf('subscriptions', { ...subscription, mixType: long })).toEqual(['/mixType']);
    for (const field of ['invoiceNumber', 'externalDocumentNumber', 'documentId'])
      expect(problemsOf('payments', { ...payment, [field]: long })).toEqual([`/${field}`]);
  });

  it("takes only links a browser may follow from a subscriber's page: http, https, or a path on the portal", () => {
    const order = { version: 1, id: 'SHOP-1', bpNumber: '1000000001', source: 'SHOP', title: 'Sonderheft' };
    for (const downloadUrl of [
      'https://files.example/heft.pdf',
      'http://files.example/heft.pdf',
      '/files/heft.pdf',
      null,
    ])
      expect(problemsOf('pending-orders', { ...order, downloadUrl })).toEqual([]);
    for (const downloadUrl of [
      'javascript:alert(1)',
      'data:text/html,x',
      '//evil.example/heft.pdf',
      'heft.pdf',
    ])
      expect(messagesOf('pending-orders', { ...order, downloadUrl })).toEqual([
        '/downloadUrl must be an http or https address, or a path on the portal\'s host such as "/files/issue-12.pdf"',
      ]);
    const crossSelling = (url: string) => ({
      ...offer,
      offer: { ...offer.offer, crossSelling: { titles: { 'de-DE': 'Buchklub' }, imageUrl: '/b.png', url } },
    });
    expect(problemsOf('offers', crossSelling('https://shop.example/buchklub'))).toEqual([]);
    expect(problemsOf('offers', crossSelling('javascript:alert(1)'))).toEqual(['/offer/crossSelling/url']);
    expect(messagesOf('offers', { ...offer, price: '-1.00' })).toEqual([
      '/price must be an amount of 0 or more with at most 8 digits before the point and 2 after it, such as "12.50"',
    ]);
  });

  it("refuses an invoice line's quantity the e-invoice could not write as a plain decimal", () => {
    const line = { description: 'Lizenz', unitPrice: '12.50', vatCategory: 'S', vatRatePercent: 19 };
    const withQuantity = (quantity: number) =>
      problemsOf('payments', { ...payment, amount: '12.50', lines: [{ ...line, quantity }] });
    expect(withQuantity(1)).toEqual([]);
    expect(withQuantity(1e-9)).toContain('/lines/0/quantity');
    expect(withQuantity(0)).toContain('/lines/0/quantity');
  });

  it('takes words per locale only as texts by locale (the screens show them as they are)', () => {
    const reason = { version: 1, publication: 'TAZ', code: 'PREIS', descriptions: { 'de-DE': 'Zu teuer' } };
    expect(problemsOf('cancellation-reasons', reason)).toEqual([]);
    expect(
      messagesOf('cancellation-reasons', { ...reason, descriptions: { 'de-DE': { text: 'Zu teuer' } } }),
    ).toEqual(['/descriptions/de-DE must be a text']);
    expect(messagesOf('cancellation-reasons', { ...reason, descriptions: { 'de-DE': '' } })).toEqual([
      '/descriptions/de-DE must not be empty',
    ]);
    expect(messagesOf('cancellation-reasons', { ...reason, descriptions: {} })).toEqual([
      '/descriptions must not be empty',
    ]);
    expect(problemsOf('cancellation-reasons', { ...reason, descriptions: { german: 'Zu teuer' } })).toEqual([
      '/descriptions',
    ]);
    const tier = {
      version: 1,
      tierCode: 'GOLD',
      position: 1,
      name: { 'de-DE': 'Gold', 'en-GB': 'Gold' },
      description: { 'de-DE': '' },
      runtimeToReach: 12,
    };
    expect(problemsOf('loyalty-tiers', tier)).toEqual([]);
    expect(problemsOf('loyalty-tiers', { ...tier, name: { 'de-DE': ['Gold'] } })).toEqual(['/name/de-DE']);
    expect(problemsOf('loyalty-tiers', { ...tier, description: { 'en-GB': 7 } })).toEqual([
      '/description/en-GB',
    ]);
    const reward = {
      version: 1,
      id: 'R1',
      tierCode: 'GOLD',
      position: 1,
      name: { 'en-GB': 'Voucher' },
      description: { 'en-GB': 'Ten per cent off' },
      rewardType: 'VOUCHER',
    };
    expect(problemsOf('loyalty-rewards', reward)).toEqual([]);
    expect(problemsOf('loyalty-rewards', { ...reward, name: { 'en-GB': null } })).toEqual(['/name/en-GB']);
  });

  it("takes a partner's country as ISO 3166-1 alpha-2 code, as the address forms read it", () => {
    const partner = { version: 1, bpNumber: '1000000001', lastName1: 'Muster', countryCode: 'DE' };
    expect(problemsOf('business-partners', partner)).toEqual([]);
    expect(problemsOf('business-partners', { ...partner, countryCode: null })).toEqual([]);
    for (const countryCode of ['Germany', 'de', 'DEU', ''])
      expect(messagesOf('business-partners', { ...partner, countryCode }), countryCode).toEqual([
        '/countryCode must be a country code of 2 capital letters (ISO 3166-1), such as "DE"',
      ]);
  });

  it('refuses a text longer than any a screen or mail could carry, in every record the order system sends', () => {
    const partner = { version: 1, bpNumber: '1000000001', lastName1: 'Muster' };
    const long = 'x'.repeat(100_000);
    expect(problemsOf('business-partners', { ...partner, street: 'Hauptstraße'.padEnd(500, '.') })).toEqual(
      [],
    );
    for (const field of ['firstName', 'lastName1', 'company1', 'street', 'streetNumber', 'zipcode', 'city'])
      expect(problemsOf('business-partners', { ...partner, [field]: long }), field).toEqual([`/${field}`]);
    const issue = { version: 1, publication: 'TAZ', issue: '2026-12' };
    expect(problemsOf('issues', { ...issue, description: long })).toEqual(['/description']);
  });

  it("takes a partner's e-mail as one address, never a list the portal's mails would go to", () => {
    const partner = {
      version: 1,
      bpNumber: '1000000001',
      lastName1: 'Muster',
      emailAddress: 'owner@example.org',
    };
    expect(problemsOf('business-partners', partner)).toEqual([]);
    expect(problemsOf('business-partners', { ...partner, emailAddress: null })).toEqual([]);
    for (const emailAddress of [
      'owner@example.org, attacker@evil.example',
      'owner@example.org;other@example.org',
      'Owner <owner@example.org>',
      'owner@example.org\nBcc: x@evil.example',
      'owner example.org',
    ])
      expect(messagesOf('business-partners', { ...partner, emailAddress }), emailAddress).toEqual([
        '/emailAddress must be one e-mail address, such as "name@example.org", without a list or a name beside it',
      ]);
  });

  it('refuses dates PostgreSQL cannot hold (the year 0000)', () => {
    expect(problemsOf('payments', { ...payment, date: '0000-01-01' })).toEqual(['/date']);
    expect(problemsOf('payments', { ...payment, date: '1000-01-01' })).toEqual([]);
  });

  it('takes versions a bigint and a JavaScript number both keep: 0 to 2^53 - 1, or times from 1970', () => {
    for (const version of [0, Number.MAX_SAFE_INTEGER, '1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z'])
      expect(problemsOf('payments', { ...payment, version }), String(version)).toEqual([]);
    for (const version of [
      -1,
      Number.MAX_SAFE_INTEGER + 1,
      1e30,
      1.5,
      '1e30',
      '7',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:30:00+01:00',
      // The year 10000 in UTC, by its offset: the docs' "from 1970 to 9999" holds for the instant.
      '9999-12-31T23:59:59-01:00',
      '0000-01-01T00:00:00Z',
      'yesterday',
    ])
      expect(problemsOf('payments', { ...payment, version }), String(version)).toEqual(['/version']);
    // Whatever is wrong with it, the problem says what a version may be: a number or a time.
    for (const version of ['v1', 1.5, null, true]) {
      const read = readRecord(entity('payments'), { ...payment, version });
      expect(read.ok ? [] : read.problems, String(version)).toEqual([
        {
          pointer: '/version',
          message: 'must be a whole number from 0 to 9007199254740991 or an RFC 3339 time from 1970 to 9999',
        },
      ]);
    }
  });

  it('reads an RFC 3339 version as milliseconds, a leap second as the next second', () => {
    expect(versionNumber('2030-01-01T00:00:00Z')).toBe(Date.parse('2030-01-01T00:00:00Z'));
    expect(versionNumber('2030-01-01T01:00:00.1239+01:00')).toBe(Date.parse('2030-01-01T00:00:00.123Z'));
    expect(versionNumber('2016-12-31T23:59:60Z')).toBe(Date.parse('2017-01-01T00:00:00Z'));
    expect(versionNumber(12)).toBe(12);
    expect(versionNumber('Mar 5')).toBeNaN();
  });
});

describe('readKey', () => {
  it("takes a key with the entity's parts, each within its field's limits", () => {
    expect(readKey(entity('payments'), '101000123~P1')).toEqual({ ok: true, parts: ['101000123', 'P1'] });
    expect(readKey(entity('business-partners'), '1000000001')).toMatchObject({ ok: true });
  });

  it('refuses the wrong number of parts, NUL and control characters, and parts their fields refuse', () => {
    const refused = (name: string, key: string) => {
      const read = readKey(entity(name), key);
      return read.ok ? 'taken' : read.message;
    };
    expect(refused('payments', '101000123')).toMatch(/2 parts joined by "~", not 1/);
    expect(refused('payments', '101000123~P1~x')).toMatch(/not 3/);
    expect(refused('subscriptions', '101~000123')).toMatch(/without "~"/);
    expect(refused('subscriptions', 'F31')).toMatch(/^its id must NOT have fewer than 4/);
    expect(refused('business-partners', '12345678901234567890')).toMatch(/at most 10 characters/);
    expect(refused('business-partners', '123')).toBe('its bpNumber must be 10 digits');
    expect(refused('licences', '101000123~4000000123~A@B.com')).toBe(
      'its email must be in lower case, without control characters or spaces at either end, as the address is kept',
    );
    expect(refused('subscriptions', '1010\u0000')).toMatch(/NUL/);
    expect(refused('subscriptions', '1010\u0001')).toMatch(/control/);
    expect(refused('subscriptions', 'x'.repeat(65))).toMatch(/at most 64/);
    expect(refused('payments', '~')).toBe('its subscriptionId must not be empty');
  });

  it('lets the last field keep a "~" where its schema takes one (a licence\'s e-mail address)', () => {
    expect(readKey(entity('licences'), '101000123~4000000123~max~m@example.com')).toEqual({
      ok: true,
      parts: ['101000123', '4000000123', 'max~m@example.com'],
    });
  });
});

describe('readVersion (DELETE ?version=)', () => {
  it('takes the versions a record takes', () => {
    expect(readVersion(entity('payments'), '7')).toEqual({ ok: true, version: 7 });
    expect(readVersion(entity('payments'), '2030-01-01T00:00:00Z')).toEqual({
      ok: true,
      version: Date.parse('2030-01-01T00:00:00Z'),
    });
  });

  it('refuses a missing version, numbers beyond 2^53 - 1 and anything that is not a time', () => {
    for (const raw of [
      undefined,
      '',
      ['1', '2'],
      '-1',
      '1e30',
      '99999999999999999999',
      '9007199254740992',
      '9999-12-31T23:59:59-01:00',
      'Mar 5',
    ])
      expect(readVersion(entity('payments'), raw).ok, String(raw)).toBe(false);
    expect(readVersion(entity('payments'), '9999-12-31T23:59:59+01:00').ok).toBe(true);
  });
});

describe("readRecord with the tenant's languages", () => {
  const languages = { locales: ['de-DE', 'en-GB'], defaultLocale: 'de-DE' };
  const messagesIn = (name: string, record: unknown) => {
    const read = readRecord(entity(name), structuredClone(record), 1, languages);
    return read.ok ? [] : read.problems.map((p) => `${p.pointer} ${p.message}`);
  };
  const required = 'is required: one text per locale of the tenant (de-DE, en-GB)';
  const foreign = 'is not a locale of this tenant (de-DE, en-GB)';
  const reason = { version: 1, publication: 'TAZ', code: 'ZEIT', descriptions: { 'de-DE': 'Keine Zeit' } };
  const tier = {
    version: 1,
    tierCode: 'SILVER',
    position: 1,
    name: { 'de-DE': 'Silber', 'en-GB': 'Silver' },
    description: { 'de-DE': '', 'en-GB': '' },
    runtimeToReach: 12,
  };
  const reward = {
    version: 1,
    id: 'R1',
    tierCode: 'SILVER',
    position: 1,
    name: { 'de-DE': 'Gutschein', 'en-GB': 'Voucher' },
    description: { 'de-DE': '', 'en-GB': '' },
    rewardType: 'VOUCHER',
  };
  const pending = { version: 1, id: 'P1', bpNumber: '1000000001', source: 'VHS', title: 'Probeabo' };

  it('wants a text for every locale of the tenant in each text by locale, and none for another', () => {
    expect(messagesIn('cancellation-reasons', reason)).toEqual([`/descriptions/en-GB ${required}`]);
    expect(
      messagesIn('cancellation-reasons', {
        ...reason,
        descriptions: { 'de-DE': 'Keine Zeit', 'en-GB': 'No time', 'fr-FR': 'Pas le temps' },
      }),
    ).toEqual([`/descriptions/fr-FR ${foreign}`]);
    expect(
      messagesIn('cancellation-reasons', {
        ...reason,
        descriptions: { 'de-DE': 'Keine Zeit', 'en-GB': 'No time' },
      }),
    ).toEqual([]);
    expect(messagesIn('loyalty-tiers', { ...tier, name: { 'de-DE': 'Silber' } })).toEqual([
      `/name/en-GB ${required}`,
    ]);
    expect(messagesIn('loyalty-tiers', tier)).toEqual([]);
    expect(messagesIn('loyalty-rewards', { ...reward, description: { 'en-GB': '' } })).toEqual([
      `/description/de-DE ${required}`,
    ]);
    expect(messagesIn('offers', offer)).toEqual([`/offer/texts/en-GB ${required}`]);
    const texts = { 'de-DE': { description: 'Ein Jahr', title: 'Verlängern' } };
    const both = { ...texts, 'en-GB': { description: 'One year', title: 'Renew' } };
    expect(messagesIn('offers', { ...offer, offer: { ...offer.offer, texts: both } })).toEqual([]);
    // An optional text by locale may be left out; given, it is complete.
    const crossSelling = {
      titles: { 'en-GB': 'Also' },
      url: 'https://shop.example/x',
      imageUrl: 'https://shop.example/x.png',
    };
    expect(messagesIn('offers', { ...offer, offer: { ...offer.offer, texts: both, crossSelling } })).toEqual([
      `/offer/crossSelling/titles/de-DE ${required}`,
    ]);
  });

  it('takes translations of some words in some languages, never in a language the tenant lacks', () => {
    expect(messagesIn('pending-orders', pending)).toEqual([]);
    expect(
      messagesIn('pending-orders', { ...pending, translations: { 'en-GB': { title: 'Trial' } } }),
    ).toEqual([]);
    expect(
      messagesIn('pending-orders', { ...pending, translations: { 'fr-FR': { title: 'Essai' } } }),
    ).toEqual([`/translations/fr-FR ${foreign}`]);
    const details = { displayName: 'Digital', translations: { 'fr-FR': { displayName: 'Numérique' } } };
    expect(messagesIn('subscriptions', { ...subscription, details })).toEqual([
      `/details/translations/fr-FR ${foreign}`,
    ]);
    expect(
      messagesIn('subscriptions', {
        ...subscription,
        details: { displayName: 'Digital', translations: { 'en-GB': { edition: 'Berlin' } } },
      }),
    ).toEqual([]);
    const order = {
      version: 1,
      id: 'PO1',
      purchaseOrderNumber: '4000000001',
      distributionArticleNumber: 'A1',
      distributionArticleDescription: 'Kalender',
      dateOfPurchaseOrderClient: '2026-01-01',
      invoiceStatus: 1,
      roles: [{ bpNumber: '1000000001', role: 'AG' }],
    };
    const prose = { 'en-GB': { distributionArticleDescription: 'Calendar' } };
    expect(messagesIn('purchase-orders', { ...order, details: { translations: prose } })).toEqual([]);
    expect(
      messagesIn('purchase-orders', {
        ...order,
        details: { translations: { 'fr-FR': { distributionArticleDescription: 'Calendrier' } } },
      }),
    ).toEqual([`/details/translations/fr-FR ${foreign}`]);
    const line = { description: 'Abo', unitPrice: '12.50', vatCategory: 'S', vatRatePercent: 7 };
    expect(
      messagesIn('payments', {
        ...payment,
        lines: [{ ...line, translations: { 'fr-FR': { description: 'Abonnement' } } }],
      }),
    ).toEqual([`/lines/0/translations/fr-FR ${foreign}`]);
  });

  it("checks the languages withTenantLanguages names (the import's), and none without them", () => {
    expect(readRecord(entity('cancellation-reasons'), structuredClone(reason)).ok).toBe(true);
    const read = withTenantLanguages(languages, () =>
      readRecord(entity('cancellation-reasons'), structuredClone(reason)),
    );
    expect(read.ok ? [] : read.problems).toEqual([{ pointer: '/descriptions/en-GB', message: required }]);
  });

  it("keepLocales cuts a record's texts by locale down to the tenant's, leaving the record as it was", () => {
    const both = { ...reason, descriptions: { 'de-DE': 'Keine Zeit', 'en-GB': 'No time' } };
    expect(keepLocales(entity('cancellation-reasons'), both, ['de-DE'])).toEqual(reason);
    expect(both.descriptions['en-GB']).toBe('No time');
  });
});

describe('readRecord: a subscription', () => {
  const messages = (record: unknown) => messagesOf('subscriptions', record);

  it('ends on or after the day it starts', () => {
    expect(messages({ ...subscription, validFrom: '2026-01-01', validTo: '2020-01-01' })).toEqual([
      '/validTo must not be before validFrom (2026-01-01)',
    ]);
    expect(messages({ ...subscription, validFrom: '2026-01-01', validTo: '2026-01-01' })).toEqual([]);
    expect(messages({ ...subscription, validFrom: null, validTo: '2020-01-01' })).toEqual([]);
  });

  it('names a partner in a role once, and has one ordering party', () => {
    const roles = (...list: Array<[string, string]>) => list.map(([bpNumber, role]) => ({ bpNumber, role }));
    expect(
      messages({
        ...subscription,
        roles: roles(['1000000001', 'AG'], ['1000000002', 'WE'], ['1000000002', 'WE']),
      }),
    ).toEqual(['/roles/2 names 1000000002 as WE again (as /roles/1 does): each partner once per role']);
    expect(messages({ ...subscription, roles: roles(['1000000001', 'AG'], ['1000000002', 'AG']) })).toEqual([
      '/roles/1 is a second ordering party (AG) beside 1000000001 (/roles/0): a subscription has one ordering party',
    ]);
    // One partner in several roles, several goods recipients: as before.
    expect(
      messages({
        ...subscription,
        roles: roles(['1000000001', 'AG'], ['1000000001', 'WE'], ['1000000002', 'WE'], ['1000000002', 'RE']),
      }),
    ).toEqual([]);
  });
});
