import { useState } from 'react';
import type { Subscription } from '../../../schemas/generated/subscription';
import { usePortal } from '../../core/PortalContext';
import { useTranslation } from '../../core/translation';
import { Dialog } from '../../ui/Dialog';
import type { ActionDialogProps } from '../types';

/**
 * Asks before the subscription moves to its next phase (portal-core.md §2 "a phase-upgrade
 * button"), then says it was received: the order system enters it, and a confirmation mail goes
 * to the account. The page then shows the subscription the server answered with, whose phase is
 * no longer upgradable, so the button is gone.
 */
export default function PhaseUpgradeDialog({ subscriptionId, onClose, onChanged }: ActionDialogProps) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [state, setState] = useState<'asking' | 'sending' | 'done' | 'already' | 'failed'>('asking');
  const path = `/subscriptions/${encodeURIComponent(subscriptionId)}`;

  const upgrade = async () => {
    setState('sending');
    try {
      onChanged(await api.post<Subscription>(`${path}/phase-upgrade`));
      setState('done');
    } catch {
      // Refused: the page may be stale (moved in another tab). It shows the subscription as it is
      // now, and says so when the phase has moved already.
      try {
        const current = await api.get<Subscription>(path);
        onChanged(current);
        setState(current.currentPhase?.canUpgrade ? 'failed' : 'already');
      } catch {
        setState('failed');
      }
    }
  };

  // Asking (and a failed try, which may be retried), or the answer: moved now, or moved already.
  const answered = state === 'done' || state === 'already';
  return (
    <Dialog
      title={t(answered ? `phase-upgrade.${state}Title` : 'phase-upgrade.title')}
      variant={state === 'done' ? 'success' : state === 'failed' ? 'error' : 'info'}
      onClose={onClose}
      actions={
        answered ? (
          <button type="button" className="button" onClick={onClose}>
            {t('shell.close')}
          </button>
        ) : (
          <>
            <button type="button" className="button button-secondary" onClick={onClose}>
              {t('phase-upgrade.keep')}
            </button>
            <button
              type="button"
              className="button"
              disabled={state === 'sending'}
              onClick={() => void upgrade()}
            >
              {t('phase-upgrade.confirm')}
            </button>
          </>
        )
      }
    >
      <p>{t(answered ? `phase-upgrade.${state}Text` : 'phase-upgrade.text')}</p>
      {state === 'failed' && <p role="alert">{t('shell.genericError')}</p>}
    </Dialog>
  );
}
