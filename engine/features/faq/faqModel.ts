import type { FaqCategory, FaqEntry } from '../../../schemas/generated/tenant';

/** portal-core.md §2 "FAQ": entries without a category belong to "general questions". */
export const GENERAL_CATEGORY = 'general';

export interface FaqGroup {
  id: string;
  category?: FaqCategory;
  entries: FaqEntry[];
}

/**
 * Groups entries by category in the tenant's category order (general questions last unless the
 * tenant lists "general" itself), keeping the entries' order; `filter` (query `category`, one or
 * many) keeps only the named categories. Empty groups are dropped.
 */
export function groupFaq(
  entries: readonly FaqEntry[],
  categories: readonly FaqCategory[],
  filter: readonly string[],
): FaqGroup[] {
  const order = categories.map((category) => category.id);
  if (!order.includes(GENERAL_CATEGORY)) order.push(GENERAL_CATEGORY);
  for (const entry of entries) {
    const id = entry.category ?? GENERAL_CATEGORY;
    if (!order.includes(id)) order.push(id);
  }
  return order
    .filter((id) => filter.length === 0 || filter.includes(id))
    .map((id) => ({
      id,
      category: categories.find((category) => category.id === id),
      entries: entries.filter((entry) => (entry.category ?? GENERAL_CATEGORY) === id),
    }))
    .filter((group) => group.entries.length > 0);
}

/** The `category` query: repeated (`?category=a&category=b`) or comma-separated (`?category=a,b`). */
export function categoryFilter(search: string): string[] {
  return new URLSearchParams(search)
    .getAll('category')
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}
