import { useTranslation } from '../core/translation';

/** A flow page's way back (to the subscription page, or to the entry page a `returnTo` names), alone in its row. */
export function FlowBackButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="form-actions">
      <button type="button" className="button button-secondary" onClick={onClick}>
        {t('account.flow.back')}
      </button>
    </div>
  );
}
