import { useTranslation } from '../core/translation';

/**
 * The loading notice. `fillsPage` when it stands for a whole page's content: it then holds a
 * screen's height, so the footer is not in view to be pushed down when the content arrives (a
 * layout shift, Lighthouse's CLS).
 */
export function Loading({ fillsPage = false }: { fillsPage?: boolean }) {
  const { t } = useTranslation();
  return (
    <p className={fillsPage ? 'loading loading-page' : 'loading'} role="status" aria-live="polite">
      {t('shell.loading')}
    </p>
  );
}
