/**
 * Invoice documents rendered in a worker thread that ends when idle (docs/invoices.md "Issued
 * documents, made once").
 *
 * Why: the e-invoice library, pdfkit and the embedded fonts stay in a heap once loaded (about 80 MB
 * for the library alone), and a larger heap lets the garbage of ordinary requests grow further before
 * V8 collects it, so one invoice raised the server's memory for good (docs/testing.md "Memory").
 * Since an issued document is made once and kept, rendering is rare: a worker thread holds these
 * libraries only while there are documents to make, and its heap goes with it a short idle time
 * after the last one (PORTAL_DOCUMENT_WORKER_IDLE_MS, 10 s by default).
 *
 * The timing metric (portal_document_duration_seconds) is taken here, on the server's registry: it
 * includes the hand-over to the thread, and the worker's first document its start.
 */
import { Worker } from 'node:worker_threads';
import type { InvoiceInput } from './invoiceModel';
import type { DocumentTenant } from './documentTenant';
import { timeDocument } from '../metrics/registry';

export type DocumentKind = 'invoice-pdf' | 'xrechnung';

/** A document for the worker to make: its input is copied (structured clone) to the thread. */
export interface DocumentJob {
  id: number;
  kind: DocumentKind;
  input: InvoiceInput;
}

/** The worker's answer: the document's bytes, or the message of the error that stopped it. */
export type DocumentAnswer = { id: number; bytes: Uint8Array } | { id: number; error: string };

interface Waiting {
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

const DEFAULT_IDLE_MS = 10_000;

function idleMs(): number {
  const configured = Number(process.env.PORTAL_DOCUMENT_WORKER_IDLE_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_IDLE_MS;
}

/** The tenant's document settings alone: a server tenant also carries what cannot be copied to a thread. */
function documentTenant(tenant: DocumentTenant): DocumentTenant {
  const { name, defaultLocale, logoUrl, themeTokens, contact, invoice } = tenant;
  return { name, defaultLocale, logoUrl, themeTokens, contact, invoice };
}

/** The running worker and the documents it owes: each worker answers (or fails) only its own. */
interface Running {
  thread: Worker;
  waiting: Map<number, Waiting>;
}

let running: Running | undefined;
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;

function startWorker(): Running {
  const thread = new Worker(new URL('./documentWorkerEntry.mjs', import.meta.url));
  const started: Running = { thread, waiting: new Map() };
  const failAll = (error: Error) => {
    for (const entry of started.waiting.values()) entry.reject(error);
    started.waiting.clear();
  };
  thread.on('message', (answer: DocumentAnswer) => {
    const entry = started.waiting.get(answer.id);
    if (!entry) return;
    started.waiting.delete(answer.id);
    if ('error' in answer) entry.reject(new Error(answer.error));
    else entry.resolve(Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength));
    if (started.waiting.size === 0) becomeIdle(started);
  });
  thread.on('error', (error) => {
    if (running === started) running = undefined;
    failAll(error);
  });
  thread.on('exit', (code) => {
    if (running === started) running = undefined;
    failAll(new Error(`the document worker stopped (exit code ${code})`));
  });
  return started;
}

/** No document waits: the worker no longer keeps the process alive, and ends after the idle time. */
function becomeIdle(idle: Running): void {
  if (running !== idle) return;
  idle.thread.unref();
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (running === idle && idle.waiting.size === 0) {
      running = undefined;
      void idle.thread.terminate();
    }
  }, idleMs());
  idleTimer.unref();
}

function render(kind: DocumentKind, input: InvoiceInput): Promise<Buffer> {
  clearTimeout(idleTimer);
  const worker = (running ??= startWorker());
  worker.thread.ref();
  const id = nextId++;
  const job: DocumentJob = { id, kind, input: { ...input, tenant: documentTenant(input.tenant) } };
  return new Promise<Buffer>((resolve, reject) => {
    worker.waiting.set(id, { resolve, reject });
    try {
      worker.thread.postMessage(job);
    } catch (error) {
      // An input that cannot be copied to the thread (a programming error): this document fails.
      worker.waiting.delete(id);
      if (worker.waiting.size === 0) becomeIdle(worker);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** An invoice's PDF (with its Factur-X where the tenant makes one), made in the document worker. */
export function invoicePdfInWorker(input: InvoiceInput): Promise<Buffer> {
  return timeDocument('invoice_pdf', () => render('invoice-pdf', input));
}

/** An invoice's XRechnung (CII) as UTF-8 bytes, made in the document worker. */
export function xRechnungInWorker(input: InvoiceInput): Promise<Buffer> {
  return timeDocument('xrechnung', () => render('xrechnung', input));
}

/** Whether the worker is running now (the tests of its idle end). */
export function documentWorkerRunning(): boolean {
  return running !== undefined;
}

/** Ends the worker now (shutdown, tests); a later document starts a new one. */
export async function stopDocumentWorker(): Promise<void> {
  clearTimeout(idleTimer);
  const stopping = running;
  running = undefined;
  if (stopping) await stopping.thread.terminate();
}
