import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { useParams } from 'react-router';
import type {
  LicenseManager,
  LicenseManagerAppointment,
  LicenseObject,
} from '../../../schemas/generated/licenses';
import { useCapabilityContext, useTenantSettings } from '../../account/capabilityContext';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { flowRefusal } from '../../account/flowRefusal';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { isLicenceManager } from '../../domain/capabilities';
import { canLicenseAction } from '../../domain/licenses';
import { Alert } from '../../ui/Alert';
import { NoticeInView } from '../../ui/NoticeInView';
import { Badge } from '../../ui/Badge';
import { formatDate } from '../../domain/dates';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { LicenseObjectCard } from './LicenseObjectCard';
import { ConfirmRemoval, LicensePerson, personName } from './LicenseParts';
import { actionErrorText } from './licenseErrors';
import { licensesApi } from './licensesApi';
import { PersonDialog } from './PersonDialog';

/**
 * /subscriptions/{id}/licenses (account-flows.md §2 "Licences", §4, §6, §8): the licence manager
 * with replace (and remove, never for a licence manager, §6), and the licence objects, each with
 * its licences in pages of 10. Buttons follow engine/domain/licenses.ts — the rules the server
 * refuses by. Replacing appoints: the new person is mailed a link and becomes manager only when they
 * confirm it (the address proves it is theirs); until then the appointment shows as pending, and
 * can be withdrawn or replaced by another.
 */
export default function LicensesScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const page = useLicensesPage(id);
  const { notice, setNotice, failure, setFailure } = page;

  return (
    <FlowScreen
      subscription={page.subscription}
      refusal={page.refusal}
      onClose={page.back}
      titleId="licenses-title"
      title={t('multi-user-licenses.heading')}
      className="account-change licenses"
      unavailableTexts={{ other: t('multi-user-licenses.notAvailable') }}
    >
      {() => (
        <>
          {notice && (
            <NoticeInView shown={notice}>
              <Alert variant="success" onClose={() => setNotice(null)} closeLabel={t('shell.close')}>
                <p className="license-notice">{notice}</p>
              </Alert>
            </NoticeInView>
          )}
          <ManagersSection page={page} />
          <ObjectsSection page={page} subscriptionId={id} />
          <div className="form-actions">
            <button type="button" className="button button-secondary" onClick={page.back}>
              {t('account.flow.back')}
            </button>
          </div>
          <ManagerDialogs page={page} subscriptionId={id} />
          {failure !== undefined && (
            <ErrorDialog message={failure ?? undefined} onClose={() => setFailure(undefined)} />
          )}
        </>
      )}
    </FlowScreen>
  );
}

/**
 * The page's data and state: the subscription and whether licences are managed on it (§6), the
 * licence objects, managers and pending appointments, the action's notice or refusal, and which
 * manager dialog is open.
 */
function useLicensesPage(id: string) {
  const { t } = useTranslation();
  const tenant = useTenantSettings();
  const subscription = useFlowSubscription(id);
  const capabilities = useCapabilityContext();
  const { back } = useFlowReturn(id);
  const objects = useResource<LicenseObject[]>(`${id}/licenses`, (client) => licensesApi(client).objects(id));
  const managers = useResource<LicenseManager[]>(`${id}/license-managers`, (client) =>
    licensesApi(client).managers(id),
  );
  const pending = useResource<LicenseManagerAppointment[]>(`${id}/license-manager-appointments`, (client) =>
    licensesApi(client).appointments(id),
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null | undefined>(undefined);
  const [replacing, setReplacing] = useState(false);
  const [removing, setRemoving] = useState<LicenseManager | null>(null);
  const [withdrawing, setWithdrawing] = useState<LicenseManagerAppointment | null>(null);

  const loaded = loadedSubscription(subscription);
  // account-flows.md §6: licences are managed on a multi-licence subscription by its licence manager
  // or ordering party; for any other one the page says so instead of failing to load (the shared
  // notice, with this flow's own sentence where the rule names no other reason).
  const refusal = loaded ? flowRefusal('multiUserLicenses', loaded, capabilities) : null;
  const actor = { isLicenseManager: loaded ? isLicenceManager(loaded) : false };

  /** Runs an action; a refusal the screen can name shows its text, anything else the generic dialog. */
  async function run(action: () => Promise<unknown>, done: string) {
    setNotice(null);
    try {
      await action();
      setNotice(done);
    } catch (error) {
      setFailure(actionErrorText(error, t) ?? null);
    } finally {
      objects.reload();
    }
  }

  return {
    subscription,
    refusal,
    back,
    actor,
    settings: tenant.multiUserLicenses,
    objects,
    managers,
    pending,
    notice,
    setNotice,
    failure,
    setFailure,
    replacing,
    setReplacing,
    removing,
    setRemoving,
    withdrawing,
    setWithdrawing,
    run,
  };
}

type LicensesPage = ReturnType<typeof useLicensesPage>;

/** No manager and no appointment waiting: the replace form then appoints the first one. */
// Nobody manages yet: the form appoints the first one. A pending appointment is nobody to replace
// (the replace text says the current manager loses the role); its own withdraw stays beside it.
const nobodyToReplace = ({ managers }: LicensesPage) =>
  managers.state.status === 'ready' && managers.state.data.length === 0;

/** The licence managers and the pending appointments, with remove, withdraw and replace (§4, §6). */
function ManagersSection({ page }: { page: LicensesPage }) {
  const { t, i18n } = useTranslation();
  const { managers, pending, actor, settings } = page;
  const loadedManagers = managers.state.status === 'ready' ? managers.state.data : [];
  const pendingAppointments = pending.state.status === 'ready' ? pending.state.data : [];
  const canReplace = canLicenseAction('replaceManager', actor, settings);
  return (
    <section className="license-managers" aria-labelledby="license-managers-title">
      <h2 id="license-managers-title">{t('multi-user-licenses.managers.heading')}</h2>
      {managers.state.status === 'loading' && <Loading />}
      {managers.state.status === 'failed' && (
        <Alert variant="error">{t('multi-user-licenses.loadError')}</Alert>
      )}
      {managers.state.status === 'ready' &&
        loadedManagers.length === 0 &&
        pendingAppointments.length === 0 && <p className="muted">{t('multi-user-licenses.managers.none')}</p>}
      <ul className="plain-list license-manager-list">
        {loadedManagers.map((m) => (
          <LicensePerson key={m.bpNumber} name={personName(m) || m.bpNumber} email={m.email}>
            {canLicenseAction('deleteManager', actor, settings) && (
              <button type="button" className="button button-secondary" onClick={() => page.setRemoving(m)}>
                {t('multi-user-licenses.managers.remove')}
              </button>
            )}
          </LicensePerson>
        ))}
        {pendingAppointments.map((a) => (
          <LicensePerson
            key={a.id}
            testId="license-manager-pending"
            name={personName(a) || a.email}
            badge={<Badge tone="warning">{t('multi-user-licenses.managers.pending')}</Badge>}
            email={a.email}
            note={t('multi-user-licenses.managers.pendingNote', {
              date: formatDate(a.expiresAt, i18n.language),
            })}
          >
            {canReplace && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => page.setWithdrawing(a)}
              >
                {t('multi-user-licenses.managers.withdraw')}
              </button>
            )}
          </LicensePerson>
        ))}
      </ul>
      {/* Once the managers and the appointments are known, so its word (appoint or replace) never
          changes under a pointer on its way to it. */}
      {canReplace && managers.state.status === 'ready' && pending.state.status !== 'loading' && (
        <div className="card-actions">
          <button type="button" className="button button-secondary" onClick={() => page.setReplacing(true)}>
            {/* With nobody to replace, the same form appoints the first one. */}
            {t(
              nobodyToReplace(page)
                ? 'multi-user-licenses.managers.appoint'
                : 'multi-user-licenses.managers.replace',
            )}
          </button>
        </div>
      )}
    </section>
  );
}

/** The licence objects, each a card; while one reloads after an action, the list before it stays. */
function ObjectsSection({ page, subscriptionId }: { page: LicensesPage; subscriptionId: string }) {
  const { t } = useTranslation();
  const { state } = page.objects;
  const list =
    state.status === 'ready' ? state.data : state.status === 'loading' ? state.previous : undefined;
  return (
    <section aria-labelledby="license-objects-title">
      <h2 id="license-objects-title">{t('multi-user-licenses.objects.heading')}</h2>
      {state.status === 'loading' && !state.previous && <Loading />}
      {state.status === 'failed' && (
        <ErrorDialog message={t('multi-user-licenses.loadError')} onClose={page.back} />
      )}
      {list && list.length === 0 && <p className="muted">{t('multi-user-licenses.objects.none')}</p>}
      {list && list.length > 0 && (
        <ul className="plain-list license-objects">
          {list.map((object) => (
            <LicenseObjectCard
              key={object.orderNumber}
              subscriptionId={subscriptionId}
              object={object}
              actor={page.actor}
              settings={page.settings}
              run={page.run}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Replacing the manager (an appointment mailed to the new person, §4), removing one, withdrawing a
 * pending appointment.
 */
function ManagerDialogs({ page, subscriptionId: id }: { page: LicensesPage; subscriptionId: string }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const { replacing, removing, withdrawing, run } = page;
  const appointing = nobodyToReplace(page);
  return (
    <>
      {replacing && (
        <PersonDialog
          title={t(
            appointing
              ? 'multi-user-licenses.managers.appointTitle'
              : 'multi-user-licenses.managers.replaceTitle',
          )}
          intro={t(
            appointing
              ? 'multi-user-licenses.managers.appointIntro'
              : 'multi-user-licenses.managers.replaceIntro',
          )}
          submitLabel={t(
            appointing
              ? 'multi-user-licenses.managers.appointSubmit'
              : 'multi-user-licenses.managers.replaceSubmit',
          )}
          salutationRequired
          onClose={() => page.setReplacing(false)}
          onSubmit={async (person) => {
            const appointment = await licensesApi(api).replaceManager(id, person);
            page.setReplacing(false);
            // Nothing changes until the appointed person confirms the mailed link.
            page.setNotice(t('multi-user-licenses.managers.appointmentSent', { email: appointment.email }));
            page.pending.reload();
          }}
        />
      )}
      {removing && (
        <ConfirmRemoval
          title={t('multi-user-licenses.managers.removeTitle')}
          text={t('multi-user-licenses.managers.removeText', { name: personName(removing) })}
          confirmLabel={t('multi-user-licenses.managers.remove')}
          onCancel={() => page.setRemoving(null)}
          onConfirm={() =>
            void run(
              () => licensesApi(api).removeManager(id, removing.bpNumber),
              t('multi-user-licenses.managers.removed'),
            ).then(() => page.managers.reload())
          }
        />
      )}
      {withdrawing && (
        <ConfirmRemoval
          title={t('multi-user-licenses.managers.withdrawTitle')}
          text={t('multi-user-licenses.managers.withdrawText', { email: withdrawing.email })}
          confirmLabel={t('multi-user-licenses.managers.withdraw')}
          onCancel={() => page.setWithdrawing(null)}
          onConfirm={() =>
            void run(
              () => licensesApi(api).withdrawAppointment(id, withdrawing.id),
              t('multi-user-licenses.managers.withdrawn'),
            ).then(() => page.pending.reload())
          }
        />
      )}
    </>
  );
}
