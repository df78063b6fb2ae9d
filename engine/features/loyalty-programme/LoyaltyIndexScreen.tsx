import { Navigate, useLocation } from 'react-router';
import { href, ROUTES } from '../../domain/routeRefs';

/** /loyalty-programme sends on to the rewards (account-flows.md §2 route table), keeping the query. */
export default function LoyaltyIndexScreen() {
  const location = useLocation();
  return <Navigate to={{ pathname: href(ROUTES.loyaltyRewards), search: location.search }} replace />;
}
