import { lazy, Suspense, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { CapabilityContext } from '../../domain/capabilities';
import { href } from '../../core/routeRefs';
import { localized } from '../../ui/localized';
import { useTenantSettings } from '../../account/capabilityContext';
import { subscriptionActions } from '../index';
import type { ActionTarget, SubscriptionAction } from '../types';

type DialogTarget = Extract<ActionTarget, { kind: 'dialog' }>;
type ActionDialog = ComponentType<{ subscriptionId: string; onClose: () => void }>;

/** One lazy component per dialog loader, made once so React keeps the dialog's state. */
const dialogs = new Map<DialogTarget['dialog'], ActionDialog>();
function dialogOf(target: DialogTarget): ActionDialog {
  let component = dialogs.get(target.dialog);
  if (!component) {
    component = lazy(target.dialog);
    dialogs.set(target.dialog, component);
  }
  return component;
}

/**
 * The action buttons of §2 "Subscription detail", built from the feature registry: each enabled
 * feature's actions whose capability rule of §6 allows them (engine/features/index.ts
 * subscriptionActions). A link goes to the route its feature serves, an external link opens in a
 * new tab, a dialog opens over the page.
 */
export function ActionButtons({ subscription: s, ctx }: { subscription: Subscription; ctx: CapabilityContext }) {
  const { t, i18n } = useTranslation();
  const tenant = useTenantSettings();
  const [open, setOpen] = useState<SubscriptionAction | null>(null);
  const buttons = subscriptionActions(tenant, s, ctx).flatMap((action) => {
    const { target } = action;
    const label = t(action.labelKey);
    switch (target.kind) {
      case 'route': {
        const params = target.params?.(s) ?? { id: s.id };
        const to = href(target.route, params, target.query?.(s, tenant));
        return [
          <Link key={action.id} className="button button-secondary" to={to}>
            {label}
          </Link>,
        ];
      }
      case 'external': {
        const url = target.url(s, ctx);
        if (!url) return [];
        return [
          <a key={action.id} className="button button-secondary" href={url} target="_blank" rel="noopener noreferrer">
            {localized(target.label?.(tenant), i18n.language) || label}
          </a>,
        ];
      }
      case 'dialog':
        return [
          <button key={action.id} type="button" className="button button-secondary" onClick={() => setOpen(action)}>
            {label}
          </button>,
        ];
    }
  });
  if (buttons.length === 0) return null;
  const Dialog = open?.target.kind === 'dialog' ? dialogOf(open.target) : null;

  return (
    <section className="action-buttons" aria-labelledby="actions-title">
      <h2 id="actions-title">{t('subscription.actionsHeading')}</h2>
      <div className="button-row">{buttons}</div>
      {Dialog && (
        <Suspense fallback={null}>
          <Dialog subscriptionId={s.id} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </section>
  );
}
