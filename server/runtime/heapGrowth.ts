/**
 * How far V8 lets the server's heap grow between two full collections (docs/going-live.md
 * "Memory").
 *
 * Under load, a request's short-lived objects outlive a young-generation collection while it
 * waits for the database, and are moved to the old generation. V8 lets that generation grow to a
 * multiple of what was live after the last full collection, up to 4× when the process is busy, so
 * under 200 connections the heap of a server whose live data is about 40 MB grew to over 200 MB of
 * garbage before it was collected. A fixed growing factor (1.5×: `--heap-growing-percent=50`)
 * collects it sooner; a full collection of a heap this small takes about 10 to 20 ms.
 * `PORTAL_HEAP_GROWING_PERCENT` sets another percentage; 0 leaves V8 its own heuristics.
 */
import v8 from 'node:v8';

export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** The percentage the variable asks for; a value that is not a whole number from 0 to 1000 is refused. */
export function heapGrowingPercent(value = process.env.PORTAL_HEAP_GROWING_PERCENT): number {
  if (value === undefined || value.trim() === '') return DEFAULT_HEAP_GROWING_PERCENT;
  const percent = Number(value);
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000)
    throw new Error(
      `PORTAL_HEAP_GROWING_PERCENT must be a whole number from 0 to 1000 (0: V8's own heuristics), not "${value}"`,
    );
  return percent;
}

/** Sets V8's growing factor for this process (its worker threads included); returns the percentage. */
export function applyHeapGrowth(value = process.env.PORTAL_HEAP_GROWING_PERCENT): number {
  const percent = heapGrowingPercent(value);
  // V8 reads the flag at every full collection, so setting it after start takes effect.
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
