/**
 * The document worker (server/documents/documentWorker.ts): invoice documents made in a thread of
 * their own say what the same documents made in the server's thread say, a failed document fails
 * alone, and the worker ends after its idle time, so the libraries it loaded leave the process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadTenantFiles } from '../../../tenant';
import { invoicePdf } from '../../../server/documents/invoicePdf';
import { invoiceModel, type InvoiceInput } from '../../../server/documents/invoiceModel';
import { canMakeXRechnung, xRechnungXml } from '../../../server/documents/eInvoice';
import {
  documentWorkerRunning,
  invoicePdfInWorker,
  stopDocumentWorker,
  xRechnungInWorker,
} from '../../../server/documents/documentWorker';
import { pdfText } from './pdfText';
import { company, payment, subscription } from './invoiceFixtures';

const { tenants } = loadTenantFiles();
const tenant = tenants.find(canMakeXRechnung)!;

const input: InvoiceInput = {
  tenant,
  locale: tenant.defaultLocale,
  subscription: subscription('ABC'),
  payment: payment({ invoiceStatusCode: 'O' }),
  billedTo: company,
};

afterAll(async () => {
  delete process.env.PORTAL_DOCUMENT_WORKER_IDLE_MS;
  await stopDocumentWorker();
});

const until = async (condition: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
  return condition();
};

describe('the document worker', () => {
  it(
    'makes the invoice PDF and the XRechnung as the server thread makes them',
    { timeout: 30_000 },
    async () => {
      expect(tenant, 'a demo tenant that makes XRechnungen').toBeDefined();
      const [inWorker, inProcess] = await Promise.all([invoicePdfInWorker(input), invoicePdf(input)]);
      expect(inWorker.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect((await pdfText(inWorker)).text).toBe((await pdfText(inProcess)).text);
      // The hybrid invoice carries its XML in the worker too.
      expect(inWorker.includes(Buffer.from('factur-x.xml'))).toBe(true);
      const xml = await xRechnungInWorker(input);
      expect(xml.toString('utf8')).toBe(await xRechnungXml(input, invoiceModel(input)));
    },
  );

  it('fails a document whose input it cannot use, and makes the next one', { timeout: 30_000 }, async () => {
    const broken = { ...input, payment: null } as unknown as InvoiceInput;
    await expect(invoicePdfInWorker(broken)).rejects.toThrow();
    const uncopyable = { ...input, subscription: { ...input.subscription, displayName: () => 'x' } };
    await expect(invoicePdfInWorker(uncopyable as unknown as InvoiceInput)).rejects.toThrow(/clone/i);
    expect((await xRechnungInWorker(input)).length).toBeGreaterThan(1000);
  });

  it('ends after its idle time, and starts again for the next document', { timeout: 30_000 }, async () => {
    process.env.PORTAL_DOCUMENT_WORKER_IDLE_MS = '100';
    await xRechnungInWorker(input);
    expect(documentWorkerRunning()).toBe(true);
    expect(await until(() => !documentWorkerRunning(), 5_000)).toBe(true);
    expect((await xRechnungInWorker(input)).length).toBeGreaterThan(1000);
    expect(await until(() => !documentWorkerRunning(), 5_000)).toBe(true);
  });
});
