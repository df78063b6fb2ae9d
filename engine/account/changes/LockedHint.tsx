import { useTranslation } from '../../core/translation';
import { Link } from '../../core/links';
import { useRouteServed } from '../../core/featureRoutes';
import { InlineFallbackContact } from '../../core/FallbackContact';
import { href, ROUTES } from '../../domain/routeRefs';

/**
 * §5 "country, email, phone and birth date editable only per tenant flags (otherwise the contact
 * form is needed)": the pointer under a locked field, as a field's hint (inline content); where the
 * tenant offers no contact form, its fallback e-mail and phone instead of a link nowhere.
 */
export function LockedNote() {
  const { t } = useTranslation();
  const contactServed = useRouteServed(ROUTES.contact);
  if (!contactServed)
    return (
      <>
        {t('account.address.lockedFallback')} <InlineFallbackContact />
      </>
    );
  return (
    <>
      {t('account.address.locked')} <Link to={href(ROUTES.contact)}>{t('account.address.lockedLink')}</Link>
    </>
  );
}

/** The same pointer as a paragraph under a locked group (the names), referenced by the group's fields. */
export function LockedHint({ id }: { id?: string }) {
  return (
    <p id={id} className="field-note muted">
      <LockedNote />
    </p>
  );
}
