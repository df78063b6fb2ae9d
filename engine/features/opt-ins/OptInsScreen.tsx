import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useParams } from 'react-router';
import type { OptIn } from '../../../schemas/generated/account-changes';
import { useTenantSettings } from '../../account/capabilityContext';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { changedOptIns, optInChoices, optInName } from '../../domain/optIns';
import { Alert } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { optInsApi } from './optInsApi';

/**
 * /subscriptions/{id}/opt-ins (account-flows.md §2 "Opt-ins", §4 "Opt-ins", §8): the opt-ins of the
 * business partner the user is on this subscription, one checkbox each — labelled by the tenant's
 * label of its type, else the server's description. Save is enabled only when a box differs from
 * the loaded value and sends only those; the answer becomes the loaded state, and opt-ins switched
 * on wait for the double opt-in link, which the page says.
 */
export default function OptInsScreen() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const s = loadedSubscription(subscription);
  const refusal = useFlowRefusal('optIns', s);
  // A refused subscription loads no opt-ins: the server would refuse the call by the same rule.
  const bpNumber = refusal ? undefined : s?.currentRoleBusinessPartner.bpNumber;
  const optIns = useResource<OptIn[] | null>(`${id}/opt-ins/${bpNumber ?? ''}`, (client) =>
    bpNumber ? optInsApi(client).list(id, bpNumber) : Promise.resolve(null),
  );
  // The boxes the user touched; the others show the loaded value.
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [savedPending, setSavedPending] = useState<OptIn[] | null>(null);

  const loaded = optIns.state.status === 'ready' ? optIns.state.data : null;
  const chosen = { ...optInChoices(loaded ?? []), ...touched };
  const changes = changedOptIns(loaded ?? [], chosen);
  // Named as the confirmation e-mail names it: one rule on both sides (engine/domain/optIns.ts).
  const label = (item: OptIn) => optInName(tenant.optIns.types, item, i18n.language);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!bpNumber || changes.length === 0) return;
    setSending(true);
    try {
      const answer = await optInsApi(api).save(id, bpNumber, { optIns: changes });
      // §4 "after save the loaded values reset".
      optIns.replace(answer);
      setTouched({});
      const switchedOn = new Set(changes.filter((change) => change.value).map((change) => change.type));
      setSavedPending(answer.filter((item) => item.pending && switchedOn.has(item.type)));
    } catch {
      setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription.
      refusal={refusal}
      onClose={back}
      titleId="opt-ins-title"
      title={t('opt-ins.heading')}
      className="account-change opt-ins"
    >
      {() => (
        <>
          {optIns.state.status === 'loading' && <Loading />}
          {optIns.state.status === 'failed' && (
            <ErrorDialog message={t('opt-ins.loadError')} onClose={back} />
          )}
          {savedPending && (
            <Alert variant="success" onClose={() => setSavedPending(null)} closeLabel={t('shell.close')}>
              <p>{t('opt-ins.saved')}</p>
              {savedPending.length > 0 && (
                <>
                  <p>{t('opt-ins.pendingNote')}</p>
                  <ul>
                    {savedPending.map((item) => (
                      <li key={item.type}>{label(item)}</li>
                    ))}
                  </ul>
                </>
              )}
            </Alert>
          )}
          {loaded && loaded.length === 0 && (
            <Alert variant="info">
              <p>{t('opt-ins.empty')}</p>
            </Alert>
          )}
          {loaded && loaded.length > 0 && (
            <form className="opt-in-form" onSubmit={save} noValidate>
              <fieldset className="choice opt-in-list" data-testid="opt-in-list">
                <legend>{t('opt-ins.legend')}</legend>
                {loaded.map((item) => (
                  <label key={item.type} className="opt-in">
                    <input
                      type="checkbox"
                      name={item.type}
                      checked={chosen[item.type]}
                      disabled={sending}
                      onChange={(event) =>
                        setTouched((current) => ({ ...current, [item.type]: event.target.checked }))
                      }
                    />
                    <span className="opt-in-text">
                      <span>{label(item)}</span>
                      {item.pending && <Badge tone="warning">{t('opt-ins.pending')}</Badge>}
                    </span>
                  </label>
                ))}
              </fieldset>
              <div className="form-actions">
                <button type="submit" className="button" disabled={sending || changes.length === 0}>
                  {t('opt-ins.save')}
                </button>
                <button type="button" className="button button-secondary" onClick={back}>
                  {t('account.flow.back')}
                </button>
              </div>
            </form>
          )}
          {loaded && loaded.length === 0 && (
            <div className="form-actions">
              <button type="button" className="button button-secondary" onClick={back}>
                {t('account.flow.back')}
              </button>
            </div>
          )}
          {failed && <ErrorDialog onClose={() => setFailed(false)} />}
        </>
      )}
    </FlowScreen>
  );
}
