import { useCallback, useState } from 'react';
import { useTranslation } from '../../core/translation';
import { Link, useParams } from 'react-router';
import type { PaymentDetails } from '../../../schemas/generated/account-changes';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { dataOf, useResource } from '../../account/resource';
import { href, ROUTES } from '../../domain/routeRefs';
import {
  isChangeablePaymentMethod,
  paysInPopup,
  type ChangeablePaymentMethod,
} from '../../domain/paymentMethodChange';
import { capToTerm, lastDayOfTerm } from '../../domain/subscriptionTerm';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { RadioGroup } from '../../ui/fields';
import { formatDate } from '../../domain/dates';
import { Loading } from '../../ui/Loading';
import { CurrentMethod } from './CurrentMethod';
import { DirectDebitForm } from './DirectDebitForm';
import { paymentDetailsApi } from './paymentDetailsApi';
import { PopupChange } from './PopupChange';
import { SepaForm } from './SepaForm';

/**
 * /subscriptions/{id}/payment-details (account-flows.md §2 "Payment details", §4 "Payment method
 * change", §8): the current method, then — on "change" — the methods the tenant allows from it
 * (the current one only when the tenant lists it under itself: an update), each with its form or
 * the payment popup; save and cancel; a success dialog that says changes take effect at the end of
 * the payment period. A failed load opens the loading-error dialog with back; a failed update the
 * generic dialog.
 */
export default function PaymentDetailsScreen() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const details = useResource<PaymentDetails>(`${id}/payment-details`, (api) =>
    paymentDetailsApi(api).details(id),
  );
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<ChangeablePaymentMethod | ''>('');
  const [saved, setSaved] = useState(false);
  const { replace, reload } = details;
  const refusal = useFlowRefusal('paymentMethodChange', loadedSubscription(subscription));

  const finish = useCallback(
    (answer: PaymentDetails | null) => {
      setEditing(false);
      setChosen('');
      setSaved(true);
      // A form's answer is the new state; after the popup the server has it.
      if (answer) replace(answer);
      else reload();
    },
    [replace, reload],
  );

  const data = dataOf(details.state);
  const offered = (data?.allowedChanges ?? []).filter(isChangeablePaymentMethod);
  const selected = chosen || (offered.length === 1 ? offered[0] : '');
  const holder = data?.account?.debitAccountHolder;

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription.
      refusal={refusal}
      onClose={back}
      titleId="payment-title"
      title={t('payment-method-change.heading')}
      className="account-change payment-details"
      keepWhileLoading
    >
      {(s) => (
        <>
          {details.state.status === 'failed' && (
            <Dialog
              title={t('payment-method-change.loadErrorTitle')}
              variant="error"
              onClose={back}
              actions={
                <button type="button" className="button" onClick={back}>
                  {t('account.flow.back')}
                </button>
              }
            >
              <p>{t('payment-method-change.loadError')}</p>
            </Dialog>
          )}
          {!data && details.state.status === 'loading' && <Loading />}
          {data && (
            <>
              <CurrentMethod details={data} />
              {data.pendingChange && (
                <Alert variant="info">
                  <p>
                    {t('payment-method-change.pending', {
                      method: t(`payment-method-change.method.${data.pendingChange.paymentMethod}`),
                      // Never after the subscription's end (subscriptionTerm.ts; the server caps it alike).
                      date: formatDate(
                        capToTerm(data.pendingChange.effectiveFrom, lastDayOfTerm(s)),
                        i18n.language,
                      ),
                    })}
                  </p>
                </Alert>
              )}
              <p className="muted">{t('payment-method-change.effectNote')}</p>
              {offered.length === 0 && (
                <p>
                  {t('payment-method-change.noChange')}{' '}
                  <Link to={href(ROUTES.contact, {}, { subscriptionId: s.id })}>
                    {t('account.flow.contactUs')}
                  </Link>
                </p>
              )}
              {offered.length > 0 && !editing && (
                <div className="form-actions">
                  <button type="button" className="button" onClick={() => setEditing(true)}>
                    {t('payment-method-change.change')}
                  </button>
                  <button type="button" className="button button-secondary" onClick={back}>
                    {t('account.flow.back')}
                  </button>
                </div>
              )}
              {offered.length > 0 && editing && (
                <section className="payment-change" aria-labelledby="payment-change-title">
                  <h2 id="payment-change-title">{t('payment-method-change.changeHeading')}</h2>
                  <RadioGroup
                    legend={t('payment-method-change.newMethod')}
                    name="payment-method"
                    options={offered.map((kind) => ({
                      value: kind,
                      label: t(
                        kind === data.paymentMethod
                          ? `payment-method-change.update.${kind}`
                          : `payment-method-change.method.${kind}`,
                      ),
                    }))}
                    value={selected}
                    onChange={setChosen}
                  />
                  {selected === 'sepa' && (
                    <SepaForm
                      subscriptionId={s.id}
                      holder={holder}
                      onSaved={finish}
                      onCancel={() => setEditing(false)}
                    />
                  )}
                  {selected === 'direct_debit' && (
                    <DirectDebitForm
                      subscriptionId={s.id}
                      holder={holder}
                      onSaved={finish}
                      onCancel={() => setEditing(false)}
                    />
                  )}
                  {selected !== '' && paysInPopup(selected) && (
                    <PopupChange
                      key={selected}
                      subscriptionId={s.id}
                      kind={selected}
                      update={selected === data.paymentMethod}
                      onSuccess={() => finish(null)}
                      onCancel={() => setEditing(false)}
                    />
                  )}
                  {selected === '' && (
                    <div className="form-actions">
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => setEditing(false)}
                      >
                        {t('payment-method-change.cancel')}
                      </button>
                    </div>
                  )}
                </section>
              )}
            </>
          )}
          {saved && (
            <Dialog
              title={t('payment-method-change.successTitle')}
              variant="success"
              onClose={() => setSaved(false)}
              actions={
                <button type="button" className="button" onClick={() => setSaved(false)}>
                  {t('shell.close')}
                </button>
              }
            >
              <p>{t('payment-method-change.successText')}</p>
            </Dialog>
          )}
        </>
      )}
    </FlowScreen>
  );
}
