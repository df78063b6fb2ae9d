import { useTranslation } from '../../core/translation';
import type { CancellationReason } from '../../../schemas/generated/offers';
import type { Subscription } from '../../../schemas/generated/subscription';
import { offersApi } from '../../account/offers/offersApi';
import { OpenPayments } from '../../account/offers/OpenPayments';
import { dataOf, useResource } from '../../account/resource';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { SelectField } from '../../ui/fields';
import { isRefusal, refusalOrThrow, type CancelRefusal } from './cancelOutcomes';
import { CancelFields, CancellationChoiceDialogs, RetentionOffers } from './CancellationChoiceParts';
import {
  useCancellationChoice,
  useRefusal,
  type CancellationCallbacks as Callbacks,
} from './useCancellationChoice';
import { FallbackContact } from '../../core/FallbackContact';

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
          <FallbackContact />
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

/**
 * The reasons' choice and what the chosen reason's infos bring (§2 "Cancellation screen"): the
 * retention offers or the cancel fields, a refusal notice, and the dialogs.
 */
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
  const choice = useCancellationChoice(s, reasons, { onAlreadyCancelled, onExternallyManaged });
  const { infos, infosAnswer, data, showOffers } = choice;
  const infosLoading = infos.state.status === 'loading' && !infosAnswer;
  return (
    <form className="cancellation-form" onSubmit={choice.check} noValidate>
      {/* A retention offer's payment left open (its page closed after a reload, or in another tab):
          its offers are not offered until it is finished or given up (account-flows.md §4
          "processing"); this says so, and giving it up offers them again. */}
      <OpenPayments
        subscriptionIds={[s.id]}
        hidden={choice.busy}
        round={choice.flow.state.step}
        onGivenUp={choice.infos.reload}
      />
      <SelectField
        label={t('cancellation.reason')}
        required
        value={choice.form.reason}
        disabled={choice.busy}
        onChange={(event) => choice.chooseReason(event.target.value)}
        error={choice.errors.reason}
      >
        <option value="">{t('cancellation.reasonPlaceholder')}</option>
        {reasons.map((r) => (
          <option key={r.cancelReason} value={r.cancelReason}>
            {r.longDescription}
          </option>
        ))}
      </SelectField>

      {infosLoading && <Loading />}
      {infos.state.status === 'failed' && <ErrorDialog onClose={() => choice.chooseReason('')} />}

      {data && showOffers && <RetentionOffers subscription={s} choice={choice} onBack={onBack} />}
      {data && !showOffers && <CancelFields subscription={s} infos={data} choice={choice} onBack={onBack} />}

      {isRefusal(infosAnswer) && infosAnswer.refusal === 'cancel:not_possible' && (
        <Alert variant="error">
          <p>{t('cancellation.notPossible')}</p>
          <FallbackContact />
        </Alert>
      )}
      {!data && infos.state.status !== 'failed' && !infosLoading && (
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={onBack}>
            {t('cancellation.keep')}
          </button>
        </div>
      )}

      <CancellationChoiceDialogs subscription={s} choice={choice} onCancelled={onCancelled} />
    </form>
  );
}
