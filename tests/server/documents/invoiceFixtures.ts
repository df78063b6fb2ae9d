/** The parties and records the e-invoice tests make invoices of (eInvoice.test.ts, documentWorker.test.ts). */
import type { InvoiceInput } from '../../../server/documents/invoiceModel';

export const person = {
  bpNumber: '1000000042',
  firstName: 'Zoë',
  lastName1: 'Ødegård',
  company1: null,
  street: 'Hauptstraße',
  streetNumber: '5',
  zipcode: '86150',
  city: 'Augsburg',
  countryCode: 'DE',
  emailAddress: 'zoe@example.org',
};
export const company = {
  bpNumber: '1000000077',
  firstName: 'Lena',
  lastName1: 'Wagner',
  company1: 'Wagner & Partner GmbH',
  street: 'Königstraße',
  streetNumber: '20',
  zipcode: '70173',
  city: 'Stuttgart',
  countryCode: 'DE',
  emailAddress: 'buchhaltung@wagner-partner.example',
};

export function payment(overrides: Partial<InvoiceInput['payment']> = {}): InvoiceInput['payment'] {
  return {
    id: 'P-1',
    date: '2026-01-01',
    amount: 89.7,
    currency: 'EUR',
    invoiceStatusCode: 'A',
    invoiceNumber: '9000001234',
    externalDocumentNumber: 'RE2026-001234',
    documentId: 'DOC-9000001234',
    ...overrides,
  };
}

export function subscription(publication: string) {
  return {
    displayName: `Abonnement ${publication}`,
    publication,
    publicationName: publication,
    orderNumber: '4711000001',
    billingFrequency: '03',
    validToOnSaleDate: null,
  };
}
