import { useTranslation } from '../../core/translation';
import { useCopyCode } from './useCopyCode';

/** A claimed code with its copy button and the brief "copied" note (§4 "Reward claim"). */
export function CodeBox({ code, noteMs }: { code: string; noteMs: number }) {
  const { t } = useTranslation();
  const { canCopy, copied, copy } = useCopyCode(noteMs);
  return (
    <div className="loyalty-code">
      <p className="loyalty-code-label">{t('loyalty-programme.claim.codeLabel')}</p>
      <p className="loyalty-code-value" data-testid="loyalty-code">
        {code}
      </p>
      {canCopy && (
        <button type="button" className="button button-secondary" onClick={() => void copy(code)}>
          {t('loyalty-programme.claim.copy')}
        </button>
      )}
      <p className="loyalty-copied" role="status">
        {copied ? t('loyalty-programme.claim.copied') : ''}
      </p>
    </div>
  );
}
