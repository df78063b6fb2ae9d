/**
 * The document worker's side (documentWorker.ts): renders the invoice documents it is sent and
 * answers with their bytes. It holds pdfkit, the fonts and the e-invoice library in a heap of its
 * own, which ends with the worker.
 */
import { parentPort } from 'node:worker_threads';
import { makeInvoicePdf } from './invoicePdf';
import { makeXRechnungXml } from './eInvoice';
import { invoiceModel } from './invoiceModel';
import type { DocumentJob, DocumentAnswer } from './documentWorker';

async function render(job: DocumentJob): Promise<Uint8Array> {
  if (job.kind === 'invoice-pdf') return makeInvoicePdf(job.input);
  return Buffer.from(await makeXRechnungXml(job.input, invoiceModel(job.input)), 'utf8');
}

parentPort!.on('message', (job: DocumentJob) => {
  render(job).then(
    (bytes) => {
      const answer: DocumentAnswer = { id: job.id, bytes };
      parentPort!.postMessage(answer);
    },
    (error: unknown) => {
      const answer: DocumentAnswer = {
        id: job.id,
        error: error instanceof Error ? error.message : String(error),
      };
      parentPort!.postMessage(answer);
    },
  );
});
