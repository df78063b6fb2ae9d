import { useTranslation } from '../../core/translation';
import { Link } from '../../core/links';
import type { CancelAnswer, CancellationInfos } from '../../../schemas/generated/offers';
import type { Subscription } from '../../../schemas/generated/subscription';
import { OfferList } from '../../account/offers/OfferList';
import { OfferSuccessDialog } from '../../account/offers/OfferSuccess';
import { PaymentDialogs } from '../../account/offers/PaymentDialogs';
import { href, ROUTES } from '../../domain/routeRefs';
import { CANCELLATION_FEEDBACK_MAX_LENGTH } from '../../domain/cancellation';
import { formatDate } from '../../domain/dates';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { SelectField, TextAreaField } from '../../ui/fields';
import { CancellationSuccessDialog, ConfirmCancellationDialog, useDateLabel } from './CancellationDialogs';
import type { CancellationChoiceModel } from './useCancellationChoice';
import { FallbackContact } from '../../core/FallbackContact';

/**
 * §2 "Cancellation screen": "A link to pause the subscription (holiday break) appears when the
 * tenant supports it": beside the offers as beside the cancel form, a way to keep it either way.
 */
function PauseLink({
  subscription: s,
  choice,
}: {
  subscription: Subscription;
  choice: CancellationChoiceModel;
}) {
  const { t } = useTranslation();
  if (!choice.pauseLink) return null;
  return (
    <p className="pause-link">
      {t('cancellation.pauseQuestion')}{' '}
      <Link to={href(ROUTES.holidayBreak, { id: s.id })}>{t('cancellation.pauseLink')}</Link>
    </p>
  );
}

/**
 * §2 "Cancellation screen": the retention offers the tenant may show before the form — take one,
 * reject them (the cancel form shows instead) or keep the subscription.
 */
export function RetentionOffers({
  subscription,
  choice,
  onBack,
}: {
  subscription: Subscription;
  choice: CancellationChoiceModel;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const { offers, chosenOffer, busy, flow, dispatch } = choice;
  return (
    <section className="retention-offers" aria-labelledby="retention-title">
      <h2 id="retention-title">{t('cancellation.offers.heading')}</h2>
      <p>{t('cancellation.offers.intro')}</p>
      <OfferList
        offers={offers}
        selected={chosenOffer?.id ?? ''}
        onSelect={(id) => dispatch({ type: 'chooseOffer', offerId: id })}
        legend={t('cancellation.offers.legend')}
        name="retention-offer"
        disabled={busy}
      />
      <PaymentDialogs flow={flow} />
      <PauseLink subscription={subscription} choice={choice} />
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={!chosenOffer || busy}
          onClick={() => dispatch({ type: 'takeOffer' })}
        >
          {t('cancellation.offers.take')}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => dispatch({ type: 'rejectOffers' })}
        >
          {t('cancellation.offers.reject')}
        </button>
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('cancellation.keep')}
        </button>
      </div>
    </section>
  );
}

/**
 * The cancel form's fields (§4 "Cancellation", §5): when the subscription cannot be cancelled
 * regularly, the extraordinary-termination hint, the reason in words and the date fixed to the
 * earliest one; otherwise the date select. Then the optional feedback, the pause link and the
 * server's refusal notices (§8) above the buttons.
 */
export function CancelFields({
  subscription: s,
  infos,
  choice,
  onBack,
}: {
  subscription: Subscription;
  infos: CancellationInfos;
  choice: CancellationChoiceModel;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const { form, dispatch, errors, cancellable, settings } = choice;
  return (
    <>
      {!cancellable && (
        <Alert variant="warning">
          <p>{t('cancellation.exceptionalHint')}</p>
        </Alert>
      )}
      {!cancellable && (
        <TextAreaField
          label={t('cancellation.reasonText')}
          required
          maxChars={CANCELLATION_FEEDBACK_MAX_LENGTH}
          hint={t('cancellation.maxCharacters', { max: CANCELLATION_FEEDBACK_MAX_LENGTH })}
          value={form.reasonText}
          onChange={(event) => dispatch({ type: 'typeReasonText', text: event.target.value })}
          error={errors.reasonText}
        />
      )}
      <CancelDate infos={infos} choice={choice} />
      {settings.feedbackForm && (
        <TextAreaField
          label={t('cancellation.feedback')}
          maxChars={CANCELLATION_FEEDBACK_MAX_LENGTH}
          hint={t('cancellation.maxCharacters', { max: CANCELLATION_FEEDBACK_MAX_LENGTH })}
          value={form.feedback}
          onChange={(event) => dispatch({ type: 'typeFeedback', text: event.target.value })}
          error={errors.feedback}
        />
      )}
      <PauseLink subscription={s} choice={choice} />
      {form.notice === 'invalid' && (
        <Alert variant="error">
          <p>{t('cancellation.invalid')}</p>
        </Alert>
      )}
      {form.notice === 'notPossible' && (
        <Alert variant="error">
          <p>{t('cancellation.notPossible')}</p>
          <FallbackContact />
        </Alert>
      )}
      <CancelActions choice={choice} onBack={onBack} />
    </>
  );
}

/**
 * The cancellation date (§4 "Cancellation"): a select of the issues it can take effect at, fixed to
 * the earliest when the subscription cannot be cancelled regularly, to the renewed term's end while
 * a renewal runs; a notice when there is none.
 */
function CancelDate({ infos, choice }: { infos: CancellationInfos; choice: CancellationChoiceModel }) {
  const { t, i18n } = useTranslation();
  const dateLabel = useDateLabel();
  const { dispatch, errors, cancellable, issues, issueIndex } = choice;
  return (
    <>
      {issues.length > 0 && (
        <SelectField
          label={t('cancellation.date')}
          required={cancellable}
          value={issueIndex >= 0 ? String(issueIndex) : ''}
          disabled={!cancellable}
          hint={
            // A renewal that runs is not cut short (engine/domain/lifecycle.ts renewedUntil).
            infos.renewedUntil
              ? t('cancellation.dateRenewed', { date: formatDate(infos.renewedUntil, i18n.language) })
              : cancellable
                ? undefined
                : t('cancellation.dateFixed')
          }
          onChange={(event) => dispatch({ type: 'chooseIssue', infos, index: Number(event.target.value) })}
          error={errors.issue}
        >
          {issues.map((option, index) => (
            <option key={`${option.issueNumber ?? 'earliest'}-${index}`} value={String(index)}>
              {dateLabel(option, !cancellable)}
            </option>
          ))}
        </SelectField>
      )}
      {issues.length === 0 && cancellable && (
        <Alert variant="info">
          <p>{t('cancellation.noDates')}</p>
        </Alert>
      )}
    </>
  );
}

/** Cancel (once a date is chosen where one is to be), back to the offers where there are any, or keep. */
function CancelActions({ choice, onBack }: { choice: CancellationChoiceModel; onBack: () => void }) {
  const { t } = useTranslation();
  const { dispatch, cancellable, issue } = choice;
  return (
    <div className="form-actions">
      <button
        type="submit"
        className="button button-danger"
        disabled={choice.busy || (cancellable && !issue)}
      >
        {t('cancellation.submit')}
      </button>
      {choice.hasOffers && (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => dispatch({ type: 'showOffers' })}
        >
          {t('cancellation.offers.show')}
        </button>
      )}
      <button type="button" className="button button-secondary" onClick={onBack}>
        {t('cancellation.keep')}
      </button>
    </div>
  );
}

/**
 * §2 "Dialogs": the confirmation (when the tenant requires it), the cancellation success, the
 * generic error (§8), the offer confirmation and the offer success.
 */
export function CancellationChoiceDialogs({
  subscription: s,
  choice,
  onCancelled,
}: {
  subscription: Subscription;
  choice: CancellationChoiceModel;
  onCancelled: (answer: CancelAnswer) => void;
}) {
  const { t } = useTranslation();
  const { form, issue, cancellable, sending, chosenOffer, offerSuccess, close } = choice;
  const { step } = form;
  return (
    <>
      {(step.name === 'confirming' || (step.name === 'sending' && step.fromDialog)) && (
        <ConfirmCancellationDialog
          subscription={s}
          issue={issue}
          exceptional={!cancellable}
          sending={sending}
          onConfirm={() => void choice.send()}
          onClose={close}
        />
      )}
      {step.name === 'cancelled' && (
        <CancellationSuccessDialog
          subscription={s}
          answer={step.answer}
          onClose={() => onCancelled(step.answer)}
        />
      )}
      {step.name === 'failed' && <ErrorDialog onClose={close} />}
      {step.name === 'confirmingOffer' && chosenOffer && (
        <Dialog
          title={t('cancellation.offers.confirmTitle')}
          onClose={close}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={close}>
                {t('account.flow.back')}
              </button>
              <button type="button" className="button" onClick={() => void choice.takeOffer()}>
                {t('cancellation.offers.confirmYes')}
              </button>
            </>
          }
        >
          <p>{t('cancellation.offers.confirmText', { offer: chosenOffer.description })}</p>
        </Dialog>
      )}
      {offerSuccess && (
        <OfferSuccessDialog
          title={t('cancellation.offers.successTitle')}
          text={t('cancellation.offers.successText', { title: s.displayName })}
          crossSelling={offerSuccess.crossSelling}
          onClose={choice.closeOfferSuccess}
        />
      )}
    </>
  );
}
