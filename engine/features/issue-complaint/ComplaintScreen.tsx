import { useState } from 'react';
import { FlowBackButton } from '../../account/FlowBackButton';
import { useTranslation } from '../../core/translation';
import { useParams } from 'react-router';
import { ContactLink } from '../../core/ContactLink';
import type { ComplaintState } from '../../../schemas/generated/account-changes';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { dataOf, useResource } from '../../account/resource';
import { complaintStart } from '../../domain/complaint';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { ComplaintForm } from './ComplaintForm';
import { complaintApi } from './complaintApi';

/**
 * /subscriptions/{id}/complaint (account-flows.md §2 "Complaint", §4, §8): by complaintStart
 * (engine/domain/complaint.ts) the no-issues message with the contact link, the conflict message
 * when the maximum is reached, the pointer to contact when every issue has a complaint already, or
 * the form. A complaint made loads the state again (its issue is then marked).
 */
export default function ComplaintScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const state = useResource<ComplaintState>(`${id}/complaint`, (api) => complaintApi(api).state(id));
  const [round, setRound] = useState(0);
  const refusal = useFlowRefusal('issueComplaint', loadedSubscription(subscription));
  const data = dataOf(state.state);
  const start = data ? complaintStart(data) : null;

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription.
      refusal={refusal}
      onClose={back}
      titleId="complaint-title"
      title={t('issue-complaint.heading')}
      className="account-change complaint"
      keepWhileLoading
    >
      {(s) => (
        <>
          {!data && state.state.status === 'loading' && <Loading />}
          {state.state.status === 'failed' && (
            <ErrorDialog message={t('issue-complaint.loadError')} onClose={back} />
          )}
          {start && start !== 'form' && (
            <Alert variant={start === 'max_reached' ? 'warning' : 'info'}>
              <p>
                {t(`issue-complaint.start.${start}`)}{' '}
                <ContactLink query={{ subscriptionId: s.id }}>{t('issue-complaint.toContact')}</ContactLink>
              </p>
            </Alert>
          )}
          {start === 'form' && data && (
            <ComplaintForm
              key={round}
              subscription={s}
              state={data}
              onDone={() => {
                setRound((n) => n + 1);
                state.reload();
              }}
              onStale={state.reload}
              onBack={back}
            />
          )}
          {start && start !== 'form' && <FlowBackButton onClick={back} />}
        </>
      )}
    </FlowScreen>
  );
}
