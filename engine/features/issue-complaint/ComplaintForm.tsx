import { useTranslation } from '../../core/translation';
import type { ComplaintState } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { ComplaintSuccessDialog } from './ComplaintSuccessDialog';
import { CompensationOptions, IssueAndReason, NoCompensationOptions } from './ComplaintFormParts';
import { useComplaintForm } from './useComplaintForm';

/**
 * §4 "Select issue, choose reason, compensation options load; submit needs both; no options gives
 * an overlay to contact". The options are asked for the chosen issue (the server narrows the
 * tenant's options per issue); an issue with a complaint already is listed but cannot be chosen.
 * Its state and calls are useComplaintForm's, its parts ComplaintFormParts'.
 */
export function ComplaintForm({
  subscription: s,
  state,
  onDone,
  onStale,
  onBack,
}: {
  subscription: Subscription;
  state: ComplaintState;
  /** A complaint was made: a fresh form over the state loaded again. */
  onDone: () => void;
  /** The server knows more (a complaint exists, the maximum is reached): load the state again. */
  onStale: () => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const form = useComplaintForm(s, onStale);
  const { asking, options, offered, refusal, ready, sending, answer, failed } = form;
  return (
    <form className="complaint-form" onSubmit={form.submit} noValidate>
      <IssueAndReason form={form} state={state} />

      {asking && options.state.status === 'loading' && <Loading />}
      {asking && options.state.status === 'failed' && <ErrorDialog onClose={() => form.chooseIssue('')} />}
      {offered && offered.length > 0 && <CompensationOptions form={form} />}
      {offered && offered.length === 0 && <NoCompensationOptions form={form} subscriptionId={s.id} />}
      {refusal && (
        <Alert variant="warning">
          <p>{t(`issue-complaint.refusal.${refusal}`)}</p>
        </Alert>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={!ready || sending}>
          {t('issue-complaint.submit')}
        </button>
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('account.flow.back')}
        </button>
      </div>
      {answer && <ComplaintSuccessDialog answer={answer} onClose={onDone} />}
      {failed && <ErrorDialog message={t('issue-complaint.failed')} onClose={() => form.setFailed(false)} />}
    </form>
  );
}
