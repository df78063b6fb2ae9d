import { useCallback } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation, useNavigate } from 'react-router';
import type { Subscription } from '../../../schemas/generated/subscription';
import { authStateAtom, isFullyLoggedIn } from '../../core/authState';
import { href, ROUTES, type RouteRef } from '../../domain/routeRefs';
import { useResource } from '../resource';
import { offersApi } from './offersApi';

/** The flows whose entry pages send on to a subscription's flow page with `returnTo` (account-flows.md §2). */
export type OfferFlowName = 'cancellation' | 'renewal' | 'upgrade';

const ENTRY_ROUTES: Record<OfferFlowName, RouteRef> = {
  cancellation: ROUTES.cancellation,
  renewal: ROUTES.renewal,
  upgrade: ROUTES.upgrade,
};

/** The entry route a `returnTo` query names, if it is one of the flows (any other value is ignored). */
export function returnToRoute(value: string | null): RouteRef | undefined {
  return value && Object.hasOwn(ENTRY_ROUTES, value) ? ENTRY_ROUTES[value as OfferFlowName] : undefined;
}

/**
 * Where a flow page's "back" goes: to the entry page named by `returnTo` (the visitor came from
 * the picker or the anonymous form, §2), else to the subscription page.
 */
export function useFlowReturn(subscriptionId: string) {
  const location = useLocation();
  const navigate = useNavigate();
  const returnTo = new URLSearchParams(location.search).get('returnTo');
  const entry = returnToRoute(returnTo);
  const backHref = entry ? href(entry) : href(ROUTES.subscription, { id: subscriptionId });
  const back = useCallback(() => navigate(backHref), [navigate, backHref]);
  return { returnTo: entry ? returnTo : null, backHref, back };
}

/**
 * §2 "Without login, success shows an inline success screen instead of a dialog": a visitor who
 * came through an anonymous entry, whose session is scoped to one subscription (order-number or
 * contact-form sign-in link). Not `returnTo`: a signed-in subscriber who picked the subscription
 * on an entry page carries it too (for "back"), and gets the dialog like on the subscription page.
 */
export function useWithoutLogin(): boolean {
  return !isFullyLoggedIn(useAtomValue(authStateAtom));
}

/** GET /subscriptions/{id} for a flow page (the subscription feature's hook is its own). */
export function useFlowSubscription(id: string) {
  return useResource<Subscription>(`/subscriptions/${id}`, (api) => offersApi(api).subscription(id));
}
