import { useTranslation } from '../core/translation';

/**
 * The loading notice. `fillsPage` when it stands for a whole page's content: it then holds a
 * screen's height, so the footer is not in view to be pushed down when the content arrives (a
 * layout shift, Lighthouse's CLS).
 */
export function Loading({
  fillsPage = false,
  pageHeading = false,
}: {
  fillsPage?: boolean;
  /**
   * It stands for a screen that is still loading its code (the router's fallback): the notice is
   * the page's h1 until the screen's own, so no page is ever without one (axe page-has-heading-one).
   */
  pageHeading?: boolean;
}) {
  const { t } = useTranslation();
  if (pageHeading)
    return (
      <div className="loading loading-page" role="status" aria-live="polite">
        <h1 className="loading-heading">{t('shell.loading')}</h1>
      </div>
    );
  return (
    <p className={fillsPage ? 'loading loading-page' : 'loading'} role="status" aria-live="polite">
      {t('shell.loading')}
    </p>
  );
}
