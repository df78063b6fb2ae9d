import { useState } from 'react';
import { FlowBackButton } from '../../account/FlowBackButton';
import { useTranslation } from '../../core/translation';
import { useLocation, useParams } from 'react-router';
import type { HolidayServiceState } from '../../../schemas/generated/account-changes';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { useResource } from '../../account/resource';
import { ApiError } from '../../core/apiClient';
import { holidayTypeOfQuery } from '../../domain/holidayService';
import { Alert } from '../../ui/Alert';
import { FallbackContact } from '../../core/FallbackContact';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { ActiveService } from './ActiveService';
import { holidayApi } from './holidayApi';
import { HolidaySetupForm, type HolidayDraft } from './HolidaySetupForm';

/**
 * /subscriptions/{id}/holiday-service (account-flows.md §2 "Holiday service", §4, §8): the
 * subscription's header, then the planned service (with cancel where allowed) or, without one, the
 * setup form; query `service` (Redirect, Break, Download) preselects the type. Booking or
 * cancelling loads the state again, so the page turns from one view to the other.
 */
/** What the page shows when the server refuses the holiday service for this subscription. */
const NO_HOLIDAY_SERVICE: HolidayServiceState = {
  types: [],
  planned: null,
  maxWeeks: { redirect: 0, break: 0, download: 0 },
  earliestStart: '',
};

export default function HolidayServiceScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const preselected = holidayTypeOfQuery(new URLSearchParams(location.search).get('service'));
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const state = useResource<HolidayServiceState>(`${id}/holiday-service`, (api) =>
    // A refusal by the tenant's flags or the §6 rule (a blacklisted title, say) is no failure to try
    // again: the page says no holiday service is possible for this subscription.
    holidayApi(api)
      .state(id)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 403) return NO_HOLIDAY_SERVICE;
        throw error;
      }),
  );
  // The note of the last change, shown above the view it led to.
  const [notice, setNotice] = useState<'booked' | 'cancelled' | 'gone' | 'active' | null>(null);
  // The reload is loading from this call on, so the note never stands beside the view it changed
  // (a cancelled service with its cancel button).
  const afterChange = (kind: 'booked' | 'cancelled' | 'gone' | 'active') => {
    setNotice(kind);
    state.reload();
  };
  const refusal = useFlowRefusal('holidayService', loadedSubscription(subscription));
  // The entries of a booking refused because a service was planned meanwhile: the planned one
  // shows first (§4: cancel before changing), and the form opens with them once it is cancelled.
  const [draft, setDraft] = useState<HolidayDraft>();

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription. A
      // title the tenant offers no holiday service for keeps this page's own sentence
      // (holiday-service.noTypes).
      refusal={refusal}
      onClose={back}
      titleId="holiday-title"
      title={t('holiday-service.heading')}
      className="account-change holiday-service"
      unavailableTexts={{ notOffered: t('holiday-service.noTypes'), other: t('holiday-service.noTypes') }}
      keepWhileLoading
    >
      {(s) => (
        <>
          {notice && (
            <Alert
              variant={notice === 'active' ? 'warning' : notice === 'gone' ? 'info' : 'success'}
              onClose={() => setNotice(null)}
              closeLabel={t('shell.close')}
            >
              <p>{t(`holiday-service.notice.${notice}`)}</p>
            </Alert>
          )}
          {state.state.status === 'loading' && <Loading />}
          {state.state.status === 'failed' && (
            <ErrorDialog message={t('holiday-service.loadError')} onClose={back} />
          )}
          {state.state.status === 'ready' &&
            (state.state.data.planned ? (
              <ActiveService
                subscription={s}
                planned={state.state.data.planned}
                onBack={back}
                onCancelled={() => afterChange('cancelled')}
                onGone={() => afterChange('gone')}
                onChanged={state.reload}
              />
            ) : state.state.data.types.length === 0 ? (
              <>
                <Alert variant="info">
                  <p>{t('holiday-service.noTypes')}</p>
                  {/* account-flows.md §1: switched off for this publication or mix type. */}
                  <FallbackContact />
                </Alert>
                <FlowBackButton onClick={back} />
              </>
            ) : (
              <HolidaySetupForm
                subscription={s}
                state={state.state.data}
                preselected={preselected}
                onBack={back}
                draft={draft}
                onBooked={() => {
                  setDraft(undefined);
                  afterChange('booked');
                }}
                onActive={(entries) => {
                  setDraft(entries);
                  afterChange('active');
                }}
              />
            ))}
        </>
      )}
    </FlowScreen>
  );
}
