import { useTranslation } from '../../core/translation';
import { useAtomValue } from 'jotai';
import type { Subscription } from '../../../schemas/generated/subscription';
import { OrderNumberEntry } from '../../account/offers/OrderNumberEntry';
import { SubscriptionPicker } from '../../account/offers/SubscriptionPicker';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { ROUTES } from '../../domain/routeRefs';
import { can, type CapabilityContext } from '../../domain/capabilities';

const canUpgrade = (s: Subscription, ctx: CapabilityContext) => can('upgrade', s, ctx);

/**
 * /upgrade (account-flows.md §2 "Renewal and upgrade screens"): signed-in users pick one of their
 * subscriptions that can be upgraded; anonymous visitors identify the subscription by order
 * number and last name and receive a sign-in link that opens its upgrade page.
 */
export default function UpgradeEntryScreen() {
  const { t } = useTranslation();
  const loggedIn = isLoggedIn(useAtomValue(authStateAtom));
  return (
    <section className="flow-entry" aria-labelledby="upgrade-entry-title">
      <h1 id="upgrade-entry-title">{t('upgrade.entryHeading')}</h1>
      {loggedIn ? (
        <>
          <p>{t('upgrade.pickerIntro')}</p>
          <SubscriptionPicker
            id="upgrade"
            allowed={canUpgrade}
            target={ROUTES.subscriptionUpgrade}
            returnTo="upgrade"
            emptyKey="upgrade.pickerEmpty"
          />
        </>
      ) : (
        <OrderNumberEntry flow="upgrade" />
      )}
    </section>
  );
}
