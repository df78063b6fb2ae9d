import { useEffect, useMemo, useReducer, type Dispatch, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useNavigate } from 'react-router';
import { useSetAtom } from 'jotai';
import type {
  CancelAnswer,
  CancellationInfos,
  CancellationIssue,
  CancellationReason,
  Recommendation,
} from '../../../schemas/generated/offers';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useCapabilityContext, useTenantSettings } from '../../account/capabilityContext';
import { holidayServiceTypes } from '../../domain/capabilities';
import type { PortalTenant } from '../../domain/portalConfig';
import { offersApi } from '../../account/offers/offersApi';
import { isPaymentBusy, usePaymentFlow, type PaymentFlow } from '../../account/offers/usePaymentFlow';
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
import {
  cancelFailureOf,
  isRefusal,
  refusalOrThrow,
  refusedOrderNumber,
  type CancelRefusal,
} from './cancelOutcomes';
import {
  cancellationFormReducer,
  initialCancellationForm,
  type CancellationFormAction,
  type CancellationFormState,
} from './cancellationFormState';

/** What the cancellation screen hands the form: where each ending leads. */
export interface CancellationCallbacks {
  onBack: () => void;
  onCancelled: (answer: CancelAnswer) => void;
  onAlreadyCancelled: () => void;
  onExternallyManaged: (orderNumber: string | undefined) => void;
}

type CancellationSettings = PortalTenant['cancellation'];
type RefusalCallbacks = Pick<CancellationCallbacks, 'onAlreadyCancelled' | 'onExternallyManaged'>;

/** A refused reasons or infos call: the screen's already-cancelled notice or its externally-managed refusal. */
export function useRefusal(answer: unknown, { onAlreadyCancelled, onExternallyManaged }: RefusalCallbacks) {
  useEffect(() => {
    if (!isRefusal(answer)) return;
    if (answer.refusal === 'cancel:already_cancelled') onAlreadyCancelled();
    if (answer.refusal === 'cancel:externally_managed') onExternallyManaged(answer.orderNumber);
    // The answer decides; the callbacks are the screen's and stay the same in effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the answer decides, see above
  }, [answer]);
}

/**
 * The state and calls of the cancellation choice (account-flows.md §4 "Cancellation", §5, §8): the
 * chosen reason loads its cancellation infos; their dates (the first preselected, fixed to the
 * earliest one when the subscription cannot be cancelled regularly) and retention offers decide
 * what the form shows.
 */
export function useCancellationChoice(
  s: Subscription,
  reasons: CancellationReason[],
  refusalCallbacks: RefusalCallbacks,
) {
  const settings = useTenantSettings().cancellation;
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
  useRefusal(infosAnswer, refusalCallbacks);
  const data = infosAnswer && !isRefusal(infosAnswer) ? infosAnswer : null;
  const sending = step.name === 'sending';
  const errors = useErrorTexts(form.errors);

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
  const pauseLink = usePauseLink(s, settings);

  const chooseReason = (value: string) => dispatch({ type: 'chooseReason', reason: value });
  const calls = useCancellationCalls(
    { s, form, dispatch, issue, cancellable, chosenOffer, flow, settings },
    refusalCallbacks,
  );

  function check(event: FormEvent) {
    event.preventDefault();
    // Only the cancel form submits; the offers view has its own buttons.
    if (showOffers || busy) return;
    const problems = cancelFormErrors({ reason, issue, reasonText, feedback }, cancellable);
    if (!data) return;
    dispatch({ type: 'checked', problems, askConfirmation: settings.requireConfirmation });
    if (problems.length === 0 && !settings.requireConfirmation) void calls.send();
  }

  const offerSuccess = flow.state.step === 'success' ? flow.state : null;
  return {
    settings,
    flow,
    form,
    dispatch,
    infos,
    infosAnswer,
    data,
    sending,
    errors,
    cancellable,
    issues,
    issueIndex,
    issue,
    offers,
    hasOffers,
    showOffers,
    chosenOffer,
    busy,
    pauseLink,
    offerSuccess,
    chooseReason,
    check,
    ...calls,
  };
}

/** The cancellation choice as its parts see it. */
export type CancellationChoiceModel = ReturnType<typeof useCancellationChoice>;

/** The first problem of each field in words, written at render from the codes, so a language switch translates them too. */
function useErrorTexts(codes: CancellationFormState['errors']) {
  const { t } = useTranslation();
  const errors: Partial<Record<CancelFormError['field'], string>> = {};
  for (const [field, code] of Object.entries(codes) as [CancelFormError['field'], string][])
    errors[field] =
      code === 'too_long'
        ? t('cancellation.tooLong', { max: CANCELLATION_FEEDBACK_MAX_LENGTH })
        : t(`cancellation.required.${field}`);
  return errors;
}

/** §2 "A link to pause the subscription (holiday break) appears when the tenant supports it". */
function usePauseLink(s: Subscription, settings: CancellationSettings) {
  const capabilities = useCapabilityContext();
  const holidayServiceServed = useRouteServed(ROUTES.holidayService);
  return (
    settings.showHolidayBreakLink &&
    // A break this subscription may take (flag, publication blacklist, the §6 holiday rule) ...
    holidayServiceTypes(s, capabilities).includes('break') &&
    // ... while a feature serves the holiday service (the holiday-break route redirects there).
    holidayServiceServed
  );
}

/**
 * The calls of the choice: the cancellation itself (§7 POST cancel, its refusals per §8) and taking a
 * retention offer (§4 "Offer acceptance", category CANCEL unless the tenant names another, §9).
 */
function useCancellationCalls(
  {
    s,
    form: { reason, reasonText, feedback },
    dispatch,
    issue,
    cancellable,
    chosenOffer,
    flow,
    settings,
  }: {
    s: Subscription;
    form: CancellationFormState;
    dispatch: Dispatch<CancellationFormAction>;
    issue: CancellationIssue | null;
    cancellable: boolean;
    chosenOffer: Recommendation | undefined;
    flow: PaymentFlow;
    settings: CancellationSettings;
  },
  { onAlreadyCancelled, onExternallyManaged }: RefusalCallbacks,
) {
  const { api } = usePortal();
  const calls = useMemo(() => offersApi(api), [api]);
  const navigate = useNavigate();
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const close = () => dispatch({ type: 'close' });

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
      // Cancelled meanwhile (another tab) or managed elsewhere: the page's notice, as for the
      // cancel call (§8), not the generic error over offers that no longer apply.
      const failure = cancelFailureOf(error);
      if (failure === 'cancel:already_cancelled' || failure === 'cancel:externally_managed') {
        flow.reset();
        if (failure === 'cancel:already_cancelled') onAlreadyCancelled();
        else onExternallyManaged(refusedOrderNumber(error));
        return;
      }
      flow.fail(error);
    }
  }

  function closeOfferSuccess() {
    flow.reset();
    setSubscriptions(resetSubscriptions);
    navigate(href(ROUTES.subscription, { id: s.id }));
  }

  return { close, send, takeOffer, closeOfferSuccess };
}
