/**
 * The payment details page's parts (account-flows.md §2 "Payment details", §4 "Payment method
 * change", §8): the loading error, the pending change, the way to a change (or to the contact
 * form), the change with the new method's form or popup, and the success dialog.
 */
import { useTranslation } from '../../core/translation';
import { ContactLink } from '../../core/ContactLink';
import type { PaymentDetails } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { paysInPopup } from '../../domain/paymentMethodChange';
import { capToTerm, lastDayOfTerm } from '../../domain/subscriptionTerm';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { RadioGroup } from '../../ui/fields';
import { formatDate } from '../../domain/dates';
import { DirectDebitForm } from './DirectDebitForm';
import { PopupChange } from './PopupChange';
import { SepaForm } from './SepaForm';
import { AccountFacts } from './CurrentMethod';
import type { PaymentDetailsModel } from './usePaymentDetails';

type Model = { model: PaymentDetailsModel };

/** §8: a failed load opens the loading-error dialog with back. */
export function LoadErrorDialog({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('payment-method-change.loadErrorTitle')}
      variant="error"
      onClose={onBack}
      actions={
        <button type="button" className="button" onClick={onBack}>
          {t('account.flow.back')}
        </button>
      }
    >
      <p>{t('payment-method-change.loadError')}</p>
    </Dialog>
  );
}

/** A change already registered: its method and from when. */
export function PendingChangeNotice({
  pendingChange,
  subscription: s,
}: {
  pendingChange: NonNullable<PaymentDetails['pendingChange']>;
  subscription: Subscription;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Alert variant="info">
      <p>
        {t('payment-method-change.pending', {
          method: t(`payment-method-change.method.${pendingChange.paymentMethod}`),
          // Never after the subscription's end (subscriptionTerm.ts; the server caps it alike).
          date: formatDate(capToTerm(pendingChange.effectiveFrom, lastDayOfTerm(s)), i18n.language),
        })}
      </p>
      {/* The new account as it was given (masked): the subscriber can check what will be debited. */}
      {pendingChange.account && (
        <dl className="facts" data-testid="payment-pending-account">
          <AccountFacts account={pendingChange.account} />
        </dl>
      )}
    </Alert>
  );
}

/** No method to change to: the way to the contact form. */
export function NoChangeNote({ subscriptionId }: { subscriptionId: string }) {
  const { t } = useTranslation();
  return (
    <p>
      {t('payment-method-change.noChange')}{' '}
      <ContactLink query={{ subscriptionId }}>{t('account.flow.contactUs')}</ContactLink>
    </p>
  );
}

/** "Change" opens the change; back leaves. */
export function ChangeActions({ onChange, onBack }: { onChange: () => void; onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="form-actions">
      <button type="button" className="button" onClick={onChange}>
        {t('payment-method-change.change')}
      </button>
      <button type="button" className="button button-secondary" onClick={onBack}>
        {t('account.flow.back')}
      </button>
    </div>
  );
}

/**
 * The methods the tenant allows from the current one (the current one only when listed under
 * itself: an update), then the chosen one's form or payment popup, or cancel while none is chosen.
 */
export function MethodChange({ model, subscriptionId }: Model & { subscriptionId: string }) {
  const { t } = useTranslation();
  const { data, offered, selected, setChosen, holder, finish, setEditing } = model;
  const cancel = () => setEditing(false);
  return (
    <section className="payment-change" aria-labelledby="payment-change-title">
      <h2 id="payment-change-title">{t('payment-method-change.changeHeading')}</h2>
      <RadioGroup
        legend={t('payment-method-change.newMethod')}
        name="payment-method"
        options={offered.map((kind) => ({
          value: kind,
          label: t(
            kind === data?.paymentMethod
              ? `payment-method-change.update.${kind}`
              : `payment-method-change.method.${kind}`,
          ),
        }))}
        value={selected}
        onChange={setChosen}
      />
      {selected === 'sepa' && (
        <SepaForm subscriptionId={subscriptionId} holder={holder} onSaved={finish} onCancel={cancel} />
      )}
      {selected === 'direct_debit' && (
        <DirectDebitForm subscriptionId={subscriptionId} holder={holder} onSaved={finish} onCancel={cancel} />
      )}
      {selected !== '' && paysInPopup(selected) && (
        <PopupChange
          key={selected}
          subscriptionId={subscriptionId}
          kind={selected}
          update={selected === data?.paymentMethod}
          onSuccess={() => finish(null)}
          onCancel={cancel}
        />
      )}
      {selected === '' && (
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={cancel}>
            {t('payment-method-change.cancel')}
          </button>
        </div>
      )}
    </section>
  );
}

/** §4: changes take effect at the end of the payment period. */
export function SavedDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('payment-method-change.successTitle')}
      variant="success"
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('shell.close')}
        </button>
      }
    >
      <p>{t('payment-method-change.successText')}</p>
    </Dialog>
  );
}
