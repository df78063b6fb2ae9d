/**
 * The billed party of an invoice whose first document is made after the partner changed in the
 * portal (server/documents/issuedInvoices.ts billedPartyOnDay, docs/invoices.md "An invoice made
 * first after a move"): each field as it was on the invoice's day, from the changes still on the
 * partner's record (their values by path, and the order system's values as `base`).
 */
import { describe, expect, it } from 'vitest';
import { billedPartyOnDay } from '../../../server/documents/issuedInvoices';
import type { BilledParty } from '../../../server/documents/invoiceModel';

const today: BilledParty = {
  bpNumber: '100',
  firstName: 'Anna',
  lastName1: 'Schmidt',
  company1: 'Schmidt Consulting',
  street: 'Seeweg',
  streetNumber: '9',
  zipcode: '24103',
  city: 'Kiel',
  countryCode: 'DE',
  addressLine1: 'Hinterhaus',
};

/** The order system's record: Lindenstraße 12, Berlin, no company, no address line. */
const moveInOctober = {
  madeOn: '2026-10-01',
  fields: { street: ['Oranienstraße'], street_number: ['25'], zipcode: ['10969'] },
  base: { street: ['Lindenstraße'], street_number: ['12'], zipcode: ['10115'] },
};
const moveInDecember = {
  madeOn: '2026-12-01',
  fields: {
    street: ['Seeweg'],
    street_number: ['9'],
    zipcode: ['24103'],
    city: ['Kiel'],
    company1: ['Schmidt Consulting'],
    'details.addressLine1': ['Hinterhaus'],
    phone_number: ['+49 431 1'],
  },
  // The trigger gives a path another change holds already that change's base: the order system's.
  base: {
    street: ['Lindenstraße'],
    street_number: ['12'],
    zipcode: ['10115'],
    city: ['Berlin'],
    company1: [null],
    'details.addressLine1': [],
    phone_number: [null],
  },
};

describe('the billed party on an invoice’s day', () => {
  it('takes back what was changed after the day: to the last change by then, else the order system’s', () => {
    const party = billedPartyOnDay(today, [moveInOctober, moveInDecember], '2026-11-01');
    expect(party).toEqual({
      ...today,
      // The October move was the address of November.
      street: 'Oranienstraße',
      streetNumber: '25',
      zipcode: '10969',
      // What only December changed is the order system's.
      city: 'Berlin',
      company1: null,
      addressLine1: null,
    });
  });

  it('is the order system’s record before every change, and today’s after them', () => {
    expect(billedPartyOnDay(today, [moveInOctober, moveInDecember], '2026-09-30')).toMatchObject({
      street: 'Lindenstraße',
      streetNumber: '12',
      zipcode: '10115',
      city: 'Berlin',
      company1: null,
    });
    expect(billedPartyOnDay(today, [moveInOctober, moveInDecember], '2026-12-01')).toEqual(today);
    expect(billedPartyOnDay(today, [], '2020-01-01')).toEqual(today);
  });
});
