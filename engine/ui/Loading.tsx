import { useTranslation } from '../core/translation';

export function Loading() {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status" aria-live="polite">
      {t('shell.loading')}
    </p>
  );
}
