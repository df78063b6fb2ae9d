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
import { Badge } from '../../ui/Badge';
import { formatDate } from '../../domain/dates';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { LicenseObjectCard } from './LicenseObjectCard';
import { actionErrorText } from './licenseErrors';
import { licensesApi } from './licensesApi';
import { PersonDialog } from './PersonDialog';
import { EmailText } from './EmailText';

/**
 * /subscriptions/{id}/licenses (account-flows.md §2 "Licences", §4, §6, §8): the licence manager
 * with replace (and remove, never for a licence manager, §6), and the licence objects, each with
 * its licences in pages of 10. Buttons follow engine/domain/licenses.ts — the rules the server
 * refuses by. Replacing appoints: the new person is mailed a link and becomes manager only when they
 * confirm it (the address proves it is theirs); until then the appointment shows as pending, and
 * can be withdrawn or replaced by another.
 */
export default function LicensesScreen() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const { api } = usePortal();
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
  const settings = tenant.multiUserLicenses;
  const loadedManagers = managers.state.status === 'ready' ? managers.state.data : [];
  const pendingAppointments = pending.state.status === 'ready' ? pending.state.data : [];
  const personName = (p: { firstName: string | null; lastName1: string | null }) =>
    [p.firstName, p.lastName1].filter(Boolean).join(' ');

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

  return (
    <FlowScreen
      subscription={subscription}
      refusal={refusal}
      onClose={back}
      titleId="licenses-title"
      title={t('multi-user-licenses.heading')}
      className="account-change licenses"
      unavailableTexts={{ other: t('multi-user-licenses.notAvailable') }}
    >
      {() => (
        <>
          {notice && (
            <Alert variant="success" onClose={() => setNotice(null)} closeLabel={t('shell.close')}>
              <p className="license-notice">{notice}</p>
            </Alert>
          )}

          <section className="license-managers" aria-labelledby="license-managers-title">
            <h2 id="license-managers-title">{t('multi-user-licenses.managers.heading')}</h2>
            {managers.state.status === 'loading' && <Loading />}
            {managers.state.status === 'failed' && (
              <Alert variant="error">{t('multi-user-licenses.loadError')}</Alert>
            )}
            {managers.state.status === 'ready' &&
              loadedManagers.length === 0 &&
              pendingAppointments.length === 0 && (
                <p className="muted">{t('multi-user-licenses.managers.none')}</p>
              )}
            <ul className="plain-list license-manager-list">
              {loadedManagers.map((m) => (
                <li key={m.bpNumber} className="license-person">
                  <strong>{[m.firstName, m.lastName1].filter(Boolean).join(' ') || m.bpNumber}</strong>
                  {m.email && <EmailText email={m.email} />}
                  {canLicenseAction('deleteManager', actor, settings) && (
                    <button type="button" className="button button-secondary" onClick={() => setRemoving(m)}>
                      {t('multi-user-licenses.managers.remove')}
                    </button>
                  )}
                </li>
              ))}
              {pendingAppointments.map((a) => (
                <li key={a.id} className="license-person" data-testid="license-manager-pending">
                  <span className="license-name">
                    <strong>{personName(a) || a.email}</strong>{' '}
                    <Badge tone="warning">{t('multi-user-licenses.managers.pending')}</Badge>
                  </span>
                  <EmailText email={a.email} />
                  <span className="muted">
                    {t('multi-user-licenses.managers.pendingNote', {
                      date: formatDate(a.expiresAt, i18n.language),
                    })}
                  </span>
                  {canLicenseAction('replaceManager', actor, settings) && (
                    <button
                      type="button"
                      className="button button-secondary"
                      onClick={() => setWithdrawing(a)}
                    >
                      {t('multi-user-licenses.managers.withdraw')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
            {canLicenseAction('replaceManager', actor, settings) && (
              <div className="card-actions">
                <button type="button" className="button button-secondary" onClick={() => setReplacing(true)}>
                  {t('multi-user-licenses.managers.replace')}
                </button>
              </div>
            )}
          </section>

          <section aria-labelledby="license-objects-title">
            <h2 id="license-objects-title">{t('multi-user-licenses.objects.heading')}</h2>
            {objects.state.status === 'loading' && !objects.state.previous && <Loading />}
            {objects.state.status === 'failed' && (
              <ErrorDialog message={t('multi-user-licenses.loadError')} onClose={back} />
            )}
            {(() => {
              const list =
                objects.state.status === 'ready'
                  ? objects.state.data
                  : objects.state.status === 'loading'
                    ? objects.state.previous
                    : undefined;
              if (!list) return null;
              if (list.length === 0) return <p className="muted">{t('multi-user-licenses.objects.none')}</p>;
              return (
                <ul className="plain-list license-objects">
                  {list.map((object) => (
                    <LicenseObjectCard
                      key={object.orderNumber}
                      subscriptionId={id}
                      object={object}
                      actor={actor}
                      settings={settings}
                      run={run}
                    />
                  ))}
                </ul>
              );
            })()}
          </section>

          <div className="form-actions">
            <button type="button" className="button button-secondary" onClick={back}>
              {t('account.flow.back')}
            </button>
          </div>

          {replacing && (
            <PersonDialog
              title={t('multi-user-licenses.managers.replaceTitle')}
              intro={t('multi-user-licenses.managers.replaceIntro')}
              submitLabel={t('multi-user-licenses.managers.replaceSubmit')}
              salutationRequired
              onClose={() => setReplacing(false)}
              onSubmit={async (person) => {
                const appointment = await licensesApi(api).replaceManager(id, person);
                setReplacing(false);
                // Nothing changes until the appointed person confirms the mailed link.
                setNotice(t('multi-user-licenses.managers.appointmentSent', { email: appointment.email }));
                pending.reload();
              }}
            />
          )}
          {removing && (
            <Dialog
              title={t('multi-user-licenses.managers.removeTitle')}
              onClose={() => setRemoving(null)}
              actions={
                <>
                  <button type="button" className="button button-secondary" onClick={() => setRemoving(null)}>
                    {t('multi-user-licenses.cancel')}
                  </button>
                  <button
                    type="button"
                    className="button button-danger"
                    onClick={() => {
                      const m = removing;
                      setRemoving(null);
                      void run(
                        () => licensesApi(api).removeManager(id, m.bpNumber),
                        t('multi-user-licenses.managers.removed'),
                      ).then(() => managers.reload());
                    }}
                  >
                    {t('multi-user-licenses.managers.remove')}
                  </button>
                </>
              }
            >
              <p>
                {t('multi-user-licenses.managers.removeText', {
                  name: [removing.firstName, removing.lastName1].filter(Boolean).join(' '),
                })}
              </p>
            </Dialog>
          )}
          {withdrawing && (
            <Dialog
              title={t('multi-user-licenses.managers.withdrawTitle')}
              onClose={() => setWithdrawing(null)}
              actions={
                <>
                  <button
                    type="button"
                    className="button button-secondary"
                    onClick={() => setWithdrawing(null)}
                  >
                    {t('multi-user-licenses.cancel')}
                  </button>
                  <button
                    type="button"
                    className="button button-danger"
                    onClick={() => {
                      const a = withdrawing;
                      setWithdrawing(null);
                      void run(
                        () => licensesApi(api).withdrawAppointment(id, a.id),
                        t('multi-user-licenses.managers.withdrawn'),
                      ).then(() => pending.reload());
                    }}
                  >
                    {t('multi-user-licenses.managers.withdraw')}
                  </button>
                </>
              }
            >
              <p>{t('multi-user-licenses.managers.withdrawText', { email: withdrawing.email })}</p>
            </Dialog>
          )}
          {failure !== undefined && (
            <ErrorDialog message={failure ?? undefined} onClose={() => setFailure(undefined)} />
          )}
        </>
      )}
    </FlowScreen>
  );
}
