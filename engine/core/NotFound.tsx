import { Link } from './links';
import { useTranslation } from './translation';

/** Catch-all of portal-core.md §2: any unknown path says 'Page not found'. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="notice-page" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t('shell.notFoundTitle')}</h1>
      <p>{t('shell.notFoundText')}</p>
      <Link to="/orders">{t('shell.toOverview')}</Link>
    </section>
  );
}
