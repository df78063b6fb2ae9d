import { Link } from '../../core/links';
import { useTranslation } from '../../core/translation';
import { isRouteServed } from '../../features';
import { ROUTES } from '../../domain/routeRefs';
import { usePortal } from '../../core/PortalContext';

/**
 * §2 "Footer": provided-by line and links to FAQ, terms, privacy, site notice and contact, each
 * only when the tenant supports or configures it. Nothing is rendered for an empty link list.
 */
export function Footer() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const { tenant } = config;
  const external: Array<{ key: string; href?: string }> = [
    { key: 'shell.termsOfService', href: tenant.termsOfServiceUrl },
    { key: 'shell.privacyPolicy', href: tenant.privacyPolicyUrl },
    { key: 'shell.siteNotice', href: tenant.siteNoticeUrl },
  ];
  const showFaq = isRouteServed(tenant.features, ROUTES.faq);
  const showContact = isRouteServed(tenant.features, ROUTES.contact);
  const links = external.filter((link) => link.href);
  const hasLinks = links.length > 0 || showFaq || showContact || Boolean(tenant.contactUrl);

  return (
    <footer className="portal-footer">
      <p className="provided-by">{t('shell.providedBy', { name: tenant.name })}</p>
      {hasLinks && (
        <nav aria-label={t('shell.footerLinks')}>
          <ul className="footer-links">
            {showFaq && (
              <li>
                <Link to="/faq">{t('shell.faq')}</Link>
              </li>
            )}
            {links.map((link) => (
              <li key={link.key}>
                <a href={link.href} target="_blank" rel="noreferrer">
                  {t(link.key)}
                </a>
              </li>
            ))}
            {showContact ? (
              <li>
                <Link to="/contact">{t('shell.contact')}</Link>
              </li>
            ) : (
              tenant.contactUrl && (
                <li>
                  <a href={tenant.contactUrl} target="_blank" rel="noreferrer">
                    {t('shell.contact')}
                  </a>
                </li>
              )
            )}
          </ul>
        </nav>
      )}
    </footer>
  );
}
