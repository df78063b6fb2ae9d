import { useTranslation } from '../../core/translation';
import { useAtomValue } from 'jotai';
import { OrderNumberEntry } from '../../account/offers/OrderNumberEntry';
import { SubscriptionPicker } from '../../account/offers/SubscriptionPicker';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { ROUTES } from '../../domain/routeRefs';
import { offersRenewal } from '../../domain/cardCapabilities';

/**
 * /renewal (account-flows.md §2 "Renewal and upgrade screens"): signed-in users pick one of their
 * subscriptions that can be renewed now (offersRenewal: not one whose accepted renewal still runs,
 * as on its card); anonymous visitors identify the subscription by order number and last name and
 * receive a sign-in link that opens its renewal page.
 */
export default function RenewalEntryScreen() {
  const { t } = useTranslation();
  const loggedIn = isLoggedIn(useAtomValue(authStateAtom));
  return (
    <section className="flow-entry" aria-labelledby="renewal-entry-title">
      <h1 id="renewal-entry-title">{t('renewal.entryHeading')}</h1>
      {loggedIn ? (
        <>
          <p>{t('renewal.pickerIntro')}</p>
          <SubscriptionPicker
            id="renewal"
            allowed={offersRenewal}
            target={ROUTES.subscriptionRenewal}
            returnTo="renewal"
            emptyKey="renewal.pickerEmpty"
          />
        </>
      ) : (
        <OrderNumberEntry flow="renewal" />
      )}
    </section>
  );
}
