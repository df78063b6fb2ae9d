import { useTranslation } from '../../core/translation';

/**
 * The button row of an anonymous entry form (account-flows.md §2: cancellation, renewal and
 * upgrade, bulk renewal): its submit button, and once the details are checked and the fields
 * locked, the one that unlocks them. Each button is an element of its own (`key`): had React turned
 * the unlocking button into the submit button in place, the click that unlocked the fields would
 * have submitted the form once more, mailing another link and locking them again.
 */
export function EntryFormActions({
  locked,
  busy,
  submitLabel,
  onUnlock,
}: {
  locked: boolean;
  busy: boolean;
  submitLabel: string;
  onUnlock: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="form-actions">
      {locked ? (
        <button key="unlock" type="button" className="button button-secondary" onClick={onUnlock}>
          {t('account.entry.changeDetails')}
        </button>
      ) : (
        <button key="submit" type="submit" className="button" disabled={busy}>
          {submitLabel}
        </button>
      )}
    </div>
  );
}
