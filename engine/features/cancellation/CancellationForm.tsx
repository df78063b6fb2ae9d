import { useEffect, useMemo, useReducer, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { Link, useNavigate } from 'react-router';
import { useSetAtom } from 'jotai';
import type {
  CancelAnswer,
  CancellationInfos,
  CancellationIssue,
  CancellationReason,
} from '../../../schemas/generated/offers';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useCapabilityContext, useTenantSettings } from '../../account/capabilityContext';
import { holidayServiceTypes } from '../../domain/capabilities';
import { OfferList } from '../../account/offers/OfferList';
import { OfferSuccessDialog } from '../../account/offers/OfferSuccess';
import { offersApi } from '../../account/offers/offersApi';
import { PaymentDialogs } from '../../account/offers/PaymentDialogs';
import { isPaymentBusy, usePaymentFlow } from '../../account/offers/usePaymentFlow';
import { dataOf, useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { useRouteServed } from '../../core/featureRoutes';
import { href, ROUTES } from '../../domain/routeRefs';
import { resetSubscriptions, subscriptionsAtom } from '../../core/subscriptionsStore';
import {
  CANCEL_CATEGORY,
  CANCELLATION_FEEDBACK_MAX_LENGTH,
  cancelFormErrors,
  preselectedCancellationIssue,
  preselectedCancelReason,
  type CancelFormError,
} from '../../domain/cancellation';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import {
  cancelFailureOf,
  isRefusal,
  refusalOrThrow,
  refusedOrderNumber,
  type CancelRefusal,
} from './cancelOutcomes';
import { CancellationSuccessDialog, ConfirmCancellationDialog, useDateLabel } from './CancellationDialogs';
import { SelectField, TextAreaField } from '../../ui/fields';
import { cancellationFormReducer, initialCancellationForm } from './cancellationFormState';

interface Callbacks {
  onBack: () => void;
  onCancelled: (answer: CancelAnswer) => void;
  onAlreadyCancelled: () => void;
  onExternallyManaged: (orderNumber: string | undefined) => void;
}

/**
 * The cancellation form (account-flows.md §2, §4 "Cancellation", §5, §8): the reasons load first —
 * none means cancellation is not possible. Choosing a reason (or the tenant's default, preselected)
 * loads the cancellation infos: the dates (first preselected; fixed to the earliest possible one
 * when the subscription cannot be cancelled regularly, which also asks for a reason in words) and
 * the retention offers, which the tenant may show before the form.
 */
export function CancellationForm({
  subscription: s,
  ...callbacks
}: Callbacks & { subscription: Subscription }) {
  const { t } = useTranslation();
  // The server writes the reasons in the screen's language: a language switch loads them again.
  const reasons = useResource<CancellationReason[] | CancelRefusal>(`${s.id}/cancellation-reasons`, (api) =>
    offersApi(api).cancellationReasons(s.id).catch(refusalOrThrow),
  );
  // While they load again (a language switch) the form keeps the previous ones and its entries.
  const data = dataOf(reasons.state);
  useRefusal(data ?? null, callbacks);
  if (reasons.state.status === 'failed') return <ErrorDialog onClose={callbacks.onBack} />;
  if (data === undefined) return <Loading />;
  if (isRefusal(data) && data.refusal !== 'cancel:not_possible') return <Loading />;
  if (isRefusal(data) || data.length === 0) {
    // §8 "no reasons gives 'cancellation not possible'".
    return (
      <>
        <Alert variant="info">
          <p>{t('cancellation.notPossible')}</p>
        </Alert>
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={callbacks.onBack}>
            {t('account.flow.back')}
          </button>
        </div>
      </>
    );
  }
  return <CancellationChoice subscription={s} reasons={data} {...callbacks} />;
}

/** A refused reasons or infos call: the screen's already-cancelled notice or its externally-managed refusal. */
function useRefusal(
  answer: unknown,
  { onAlreadyCancelled, onExternallyManaged }: Pick<Callbacks, 'onAlreadyCancelled' | 'onExternallyManaged'>,
) {
  useEffect(() => {
    if (!isRefusal(answer)) return;
    if (answer.refusal === 'cancel:already_cancelled') onAlreadyCancelled();
    if (answer.refusal === 'cancel:externally_managed') onExternallyManaged(answer.orderNumber);
    // The answer decides; the callbacks are the screen's and stay the same in effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the answer decides, see above
  }, [answer]);
}

function CancellationChoice({
  subscription: s,
  reasons,
  onBack,
  onCancelled,
  onAlreadyCancelled,
  onExternallyManaged,
}: Callbacks & {
  subscription: Subscription;
  reasons: CancellationReason[];
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const capabilities = useCapabilityContext();
  const settings = tenant.cancellation;
  const calls = useMemo(() => offersApi(api), [api]);
  const dateLabel = useDateLabel();
  const navigate = useNavigate();
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const flow = usePaymentFlow();

  const [form, dispatch] = useReducer(cancellationFormReducer, undefined, () =>
    initialCancellationForm(preselectedCancelReason(reasons, settings.defaultCancelReason)),
  );
  const { reason, issueChoice, reasonText, feedback, offersRejected, offerId, step } = form;
  const infos = useResource<CancellationInfos | CancelRefusal | null>(
    `${s.id}/cancellation-infos?${reason}`,
    (client) =>
      reason
        ? offersApi(client).cancellationInfos(s.id, reason).catch(refusalOrThrow)
        : Promise.resolve(null),
  );
  const infosAnswer = dataOf(infos.state) ?? null;
  useRefusal(infosAnswer, { onAlreadyCancelled, onExternallyManaged });
  const data = infosAnswer && !isRefusal(infosAnswer) ? infosAnswer : null;
  const sending = step.name === 'sending';
  // Written at render from the codes, so a language switch translates them too.
  const errors: Partial<Record<CancelFormError['field'], string>> = {};
  for (const [field, code] of Object.entries(form.errors) as [CancelFormError['field'], string][])
    errors[field] =
      code === 'too_long'
        ? t('cancellation.tooLong', { max: CANCELLATION_FEEDBACK_MAX_LENGTH })
        : t(`cancellation.required.${field}`);

  const cancellable = data?.cancellable ?? true;
  const issues = data?.issues ?? [];
  const preselected = data ? preselectedCancellationIssue(issues, cancellable) : null;
  const issueIndex =
    cancellable && data && issueChoice?.infos === data
      ? issueChoice.index
      : preselected
        ? issues.indexOf(preselected)
        : -1;
  const issue: CancellationIssue | null = issues[issueIndex] ?? null;
  const offers = data?.recommendations ?? [];
  const hasOffers = settings.showRetentionOffers && offers.length > 0;
  const showOffers = hasOffers && !offersRejected;
  const chosenOffer = offers.find((offer) => offer.id === offerId) ?? offers[0];
  const busy = isPaymentBusy(flow.state) || sending;
  const holidayServiceServed = useRouteServed(ROUTES.holidayService);
  const pauseLink =
    settings.showHolidayBreakLink &&
    // A break this subscription may take (flag, publication blacklist, the §6 holiday rule) ...
    holidayServiceTypes(s, capabilities).includes('break') &&
    // ... while a feature serves the holiday service (the holiday-break route redirects there).
    holidayServiceServed;

  const chooseReason = (value: string) => dispatch({ type: 'chooseReason', reason: value });
  const close = () => dispatch({ type: 'close' });

  function check(event: FormEvent) {
    event.preventDefault();
    // Only the cancel form submits; the offers view has its own buttons.
    if (showOffers || busy) return;
    const problems = cancelFormErrors({ reason, issue, reasonText, feedback }, cancellable);
    if (!data) return;
    dispatch({ type: 'checked', problems, askConfirmation: settings.requireConfirmation });
    if (problems.length === 0 && !settings.requireConfirmation) void send();
  }

  async function send() {
    dispatch({ type: 'send' });
    try {
      const result = await calls.cancel(s.id, {
        reason,
        issue,
        ...(!cancellable ? { reasonText: reasonText.trim() } : {}),
        ...(settings.feedbackForm && feedback.trim() ? { feedback: feedback.trim() } : {}),
      });
      dispatch({ type: 'cancelled', answer: result });
      // The overview lists the subscription too: it now shows it cancelled (AK).
      setSubscriptions(resetSubscriptions);
    } catch (error) {
      switch (cancelFailureOf(error)) {
        case 'cancel:already_cancelled':
          close();
          onAlreadyCancelled();
          break;
        case 'cancel:externally_managed':
          close();
          onExternallyManaged(refusedOrderNumber(error));
          break;
        case 'cancel:not_possible':
          dispatch({ type: 'refused', notice: 'notPossible' });
          break;
        case 'cancel:invalid':
          dispatch({ type: 'refused', notice: 'invalid' });
          break;
        default:
          dispatch({ type: 'failed' });
      }
    }
  }

  async function takeOffer() {
    close();
    if (!chosenOffer) return;
    try {
      await flow.accept(
        () =>
          calls.accept(s.id, chosenOffer.recommendationId, {
            source: 'cancellation',
            category: settings.recommendationCategory || CANCEL_CATEGORY,
            cancelReason: reason,
          }),
        { openInNewTab: chosenOffer.openInNewTab },
      );
    } catch (error) {
      flow.fail(error);
    }
  }

  function closeOfferSuccess() {
    flow.reset();
    setSubscriptions(resetSubscriptions);
    navigate(href(ROUTES.subscription, { id: s.id }));
  }

  const offerSuccess = flow.state.step === 'success' ? flow.state : null;
  return (
    <form className="cancellation-form" onSubmit={check} noValidate>
      <SelectField
        label={t('cancellation.reason')}
        required
        value={reason}
        disabled={busy}
        onChange={(event) => chooseReason(event.target.value)}
        error={errors.reason}
      >
        <option value="">{t('cancellation.reasonPlaceholder')}</option>
        {reasons.map((r) => (
          <option key={r.cancelReason} value={r.cancelReason}>
            {r.longDescription}
          </option>
        ))}
      </SelectField>

      {infos.state.status === 'loading' && !infosAnswer && <Loading />}
      {infos.state.status === 'failed' && <ErrorDialog onClose={() => chooseReason('')} />}

      {data && showOffers && (
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
      )}

      {data && !showOffers && (
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
              value={reasonText}
              onChange={(event) => dispatch({ type: 'typeReasonText', text: event.target.value })}
              error={errors.reasonText}
            />
          )}
          {issues.length > 0 && (
            <SelectField
              label={t('cancellation.date')}
              required={cancellable}
              value={issueIndex >= 0 ? String(issueIndex) : ''}
              disabled={!cancellable}
              hint={cancellable ? undefined : t('cancellation.dateFixed')}
              onChange={(event) =>
                dispatch({ type: 'chooseIssue', infos: data, index: Number(event.target.value) })
              }
              error={errors.issue}
            >
              {issues.map((option, index) => (
                <option key={`${option.issueNumber ?? 'earliest'}-${index}`} value={String(index)}>
                  {dateLabel(option)}
                </option>
              ))}
            </SelectField>
          )}
          {issues.length === 0 && cancellable && (
            <Alert variant="info">
              <p>{t('cancellation.noDates')}</p>
            </Alert>
          )}
          {settings.feedbackForm && (
            <TextAreaField
              label={t('cancellation.feedback')}
              maxChars={CANCELLATION_FEEDBACK_MAX_LENGTH}
              hint={t('cancellation.maxCharacters', { max: CANCELLATION_FEEDBACK_MAX_LENGTH })}
              value={feedback}
              onChange={(event) => dispatch({ type: 'typeFeedback', text: event.target.value })}
              error={errors.feedback}
            />
          )}
          {pauseLink && (
            <p className="pause-link">
              {t('cancellation.pauseQuestion')}{' '}
              <Link to={href(ROUTES.holidayBreak, { id: s.id })}>{t('cancellation.pauseLink')}</Link>
            </p>
          )}
          {form.notice === 'invalid' && (
            <Alert variant="error">
              <p>{t('cancellation.invalid')}</p>
            </Alert>
          )}
          {form.notice === 'notPossible' && (
            <Alert variant="error">
              <p>{t('cancellation.notPossible')}</p>
            </Alert>
          )}
          <div className="form-actions">
            <button type="submit" className="button button-danger" disabled={busy || (cancellable && !issue)}>
              {t('cancellation.submit')}
            </button>
            {hasOffers && (
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
        </>
      )}

      {isRefusal(infosAnswer) && infosAnswer.refusal === 'cancel:not_possible' && (
        <Alert variant="error">
          <p>{t('cancellation.notPossible')}</p>
        </Alert>
      )}
      {!data && infos.state.status !== 'failed' && !(infos.state.status === 'loading' && !infosAnswer) && (
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={onBack}>
            {t('cancellation.keep')}
          </button>
        </div>
      )}

      {(step.name === 'confirming' || (step.name === 'sending' && step.fromDialog)) && (
        <ConfirmCancellationDialog
          subscription={s}
          issue={issue}
          exceptional={!cancellable}
          sending={sending}
          onConfirm={() => void send()}
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
              <button type="button" className="button" onClick={() => void takeOffer()}>
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
          onClose={closeOfferSuccess}
        />
      )}
    </form>
  );
}
