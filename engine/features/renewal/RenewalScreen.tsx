import { OfferFlowScreen, type OfferFlowTexts } from '../../account/offers/OfferFlowScreen';
import { canRenew } from '../../domain/capabilities';

const TEXTS: OfferFlowTexts = {
  heading: 'renewal.heading',
  intro: 'renewal.intro',
  legend: 'renewal.legend',
  submit: 'renewal.submit',
  empty: 'renewal.empty',
  renewed: 'renewal.renewedUntil',
  notAllowed: 'renewal.notAllowed',
  successTitle: 'renewal.successTitle',
  successText: 'renewal.successText',
  revokesCancellation: 'renewal.revokesCancellation',
  successTextRevoked: 'renewal.successTextRevoked',
};

/** /subscriptions/{id}/renewal (account-flows.md §2): the renewal offers, nothing chosen until the visitor picks one. */
export default function RenewalScreen() {
  return <OfferFlowScreen source="renewal" texts={TEXTS} allowed={canRenew} />;
}
