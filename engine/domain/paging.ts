/**
 * Paged lists of the subscription page (portal-core.md §2, §9): payment history and delivered
 * issues use pages of 10, zero-based, with one neighbouring page shown on each side.
 */
export const PAGE_SIZE = 10;

export interface Page<T> {
  items: T[];
  /** Zero-based page number. */
  page: number;
  pageSize: number;
  totalItems: number;
  totalPages: number;
}

/** A zero-based page number from a query value; anything else is page 0. */
export function parsePageNumber(value: unknown): number {
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

export function totalPages(totalItems: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(totalItems / pageSize));
}

/** The page buttons to show: the current page with one neighbour each side, inside the range. */
export function pageWindow(page: number, pages: number): number[] {
  const out: number[] = [];
  for (let p = Math.max(0, page - 1); p <= Math.min(pages - 1, page + 1); p++) out.push(p);
  return out;
}
