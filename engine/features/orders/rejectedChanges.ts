import type { RejectedChanges } from '../../../schemas/generated/rejected-changes';
import { useSessionScope } from '../../core/authState';
import { useResource } from '../../account/resource';

/**
 * The account's own changes that the publisher's order system rejected (GET /rejected-changes),
 * which the orders page names above its lists (RejectedChanges.tsx, loaded when there is one).
 * Quiet when they cannot be loaded: the orders page is about the orders, and each rejection also
 * went out by e-mail.
 * A "logged in only" session (portal-core.md §4) sees one subscription, not the account's
 * changes: it does not ask.
 */
export function useRejectedChanges() {
  const scope = useSessionScope();
  const wholeAccount = scope.kind === 'account';
  return useResource<RejectedChanges>(`rejected-changes:${wholeAccount}`, (api) =>
    wholeAccount ? api.get<RejectedChanges>('/rejected-changes') : Promise.resolve([]),
  );
}
