import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useNavigate } from 'react-router';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { Link } from '../../core/links';
import { useMayOpenRoute } from '../../core/featureRoutes';
import { href, ROUTES, type RouteRef } from '../../domain/routeRefs';
import type { CapabilityContext } from '../../domain/capabilities';
import { useCapabilityContext } from '../capabilityContext';
import { ResourceView } from '../ResourceView';
import { storedResource } from '../resource';
import type { OfferFlowName } from './flowNavigation';

/**
 * The signed-in entry of the cancellation, renewal and upgrade pages (account-flows.md §2
 * "Logged in: choose a subscription ... pick a subscription by displayName and continue"): the
 * user's subscriptions the flow's capability rule allows (§6), then the subscription's flow page
 * with `returnTo` naming this entry page.
 */
export function SubscriptionPicker({
  allowed,
  target,
  returnTo,
  emptyKey,
  id,
}: {
  allowed: (s: Subscription, ctx: CapabilityContext) => boolean;
  target: RouteRef;
  returnTo: OfferFlowName;
  /** The flow's own "none of your subscriptions can …" text. */
  emptyKey: string;
  /** Id prefix of the form's fields (one picker per page). */
  id: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ctx = useCapabilityContext();
  const { state, reload } = useSubscriptions();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState(false);
  const resource = storedResource(state.status, state.subscriptions, reload);

  return (
    <ResourceView
      resource={resource}
      errorKey="account.picker.loadError"
      empty={<PickerEmpty emptyKey={emptyKey} />}
      isEmpty={(all) => !all.some((s) => allowed(s, ctx))}
    >
      {(all) => {
        const choices = all.filter((s) => allowed(s, ctx));
        const value = chosen || (choices.length === 1 ? choices[0].id : '');
        const submit = (event: FormEvent) => {
          event.preventDefault();
          if (!value) {
            setError(true);
            return;
          }
          navigate(href(target, { id: value }, { returnTo }));
        };
        return (
          <form className="subscription-picker" onSubmit={submit} noValidate>
            <div className="form-field">
              <label htmlFor={`${id}-subscription`}>
                {t('account.picker.label')}
                <span aria-hidden="true"> *</span>
              </label>
              <select
                id={`${id}-subscription`}
                required
                value={value}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-subscription-error` : undefined}
                onChange={(event) => {
                  setChosen(event.target.value);
                  setError(false);
                }}
              >
                <option value="">{t('account.picker.placeholder')}</option>
                {choices.map((s) => (
                  <option key={s.id} value={s.id}>
                    {t('account.picker.option', { name: s.displayName, orderNumber: s.orderNumber })}
                  </option>
                ))}
              </select>
              {error && (
                <p id={`${id}-subscription-error`} className="form-error">
                  {t('account.picker.required')}
                </p>
              )}
            </div>
            <div className="form-actions">
              <button type="submit" className="button">
                {t('account.picker.continue')}
              </button>
            </div>
          </form>
        );
      }}
    </ResourceView>
  );
}

/**
 * None of the subscriptions is the flow's to choose (the one just cancelled, say): the flow's text,
 * and where the subscriptions and their state are (a mailed link's session, which speaks for one
 * subscription, opens the orders page with that one: engine/domain/sessionScope.ts).
 */
function PickerEmpty({ emptyKey }: { emptyKey: string }) {
  const { t } = useTranslation();
  const ordersOpen = useMayOpenRoute(ROUTES.orders);
  return (
    <>
      <p>{t(emptyKey)}</p>
      {ordersOpen && (
        <p>
          <Link to={href(ROUTES.orders)}>{t('account.picker.toOrders')}</Link>
        </p>
      )}
    </>
  );
}
