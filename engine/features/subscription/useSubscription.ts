import { useState } from 'react';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useResource } from '../../account/resource';

/** GET /subscriptions/{id}; a failure opens the dialog that returns to /orders (§8). */
export function useSubscription(id: string) {
  return useResource(`/subscriptions/${id}`, (api) =>
    api.get<Subscription>(`/subscriptions/${encodeURIComponent(id)}`),
  );
}

export interface HistoryPage<T> {
  items: T[];
  totalPages: number;
  totalItems: number;
  /** The zero-based page the items belong to. */
  page: number;
}

/**
 * A paged list of the subscription page (§2, §9: pages of 10, zero-based). While the next page
 * loads, the resource keeps the previous page's items (ResourceView's keepWhileLoading).
 */
export function usePagedList<T>(path: string) {
  const [page, setPage] = useState(0);
  const resource = useResource(`${path}?page=${page}`, async (api) => {
    const result = await api.get<{ items: T[]; totalPages: number; totalItems: number }>(
      `${path}?page=${page}`,
    );
    return { ...result, page } satisfies HistoryPage<T>;
  });
  return { page, setPage, resource };
}
