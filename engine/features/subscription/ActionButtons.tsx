import { lazy, Suspense, useState, type ComponentType } from 'react';
import { useTranslation } from '../../core/translation';
import { Link } from '../../core/links';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { CapabilityContext } from '../../domain/capabilities';
import { href } from '../../domain/routeRefs';
import { localized } from '../../ui/localized';
import { useTenantSettings } from '../../account/capabilityContext';
import { useSubscriptionActions } from '../../core/featureRoutes';
import { ACTION_GROUPS, type ActionDialogProps, type ActionTarget, type SubscriptionAction } from '../types';

type DialogTarget = Extract<ActionTarget, { kind: 'dialog' }>;
type ActionDialog = ComponentType<ActionDialogProps>;

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
 * allowedActions) and that the session may follow (isActionOpenTo, portal-core.md §4). A link
 * goes to the route its feature serves, an external link opens in a new tab, a dialog opens over
 * the page. Grouped under headings (keep, manage, help, end), with one primary button.
 */
export function ActionButtons({
  actions: loaded,
  subscription: s,
  ctx,
  onChanged,
}: {
  /** The enabled features' actions, loaded (engine/core/featureRoutes.tsx useSubscriptionActionsLoad). */
  actions: readonly SubscriptionAction[];
  subscription: Subscription;
  ctx: CapabilityContext;
  /** Takes the subscription a dialog's change answered with: the page shows it. */
  onChanged: (subscription: Subscription) => void;
}) {
  const { t, i18n } = useTranslation();
  const tenant = useTenantSettings();
  const [open, setOpen] = useState<SubscriptionAction | null>(null);
  // The shell lists them from the registry (engine/app/featureRoutes.ts): a "logged in only"
  // session (portal-core.md §4) gets no button to a screen whose calls the server refuses it.
  const actions = useSubscriptionActions(loaded, s, ctx);
  // One clear primary action: the first way to keep the subscription (renew, upgrade), else the
  // first way to manage it; never help or cancellation.
  const primary =
    actions.find((action) => action.group === 'keep') ?? actions.find((action) => action.group === 'manage');
  const button = (action: SubscriptionAction) => {
    const { target } = action;
    const label = t(action.labelKey);
    const className = action === primary ? 'button' : 'button button-secondary';
    switch (target.kind) {
      case 'route': {
        const params = target.params?.(s) ?? { id: s.id };
        const to = href(target.route, params, target.query?.(s, tenant));
        return (
          <Link key={action.id} className={className} to={to}>
            {label}
          </Link>
        );
      }
      case 'external': {
        const url = target.url(s, ctx);
        if (!url) return null;
        return (
          <a key={action.id} className={className} href={url} target="_blank" rel="noopener noreferrer">
            {localized(target.label?.(tenant), i18n.language) || label}
          </a>
        );
      }
      case 'dialog':
        return (
          <button key={action.id} type="button" className={className} onClick={() => setOpen(action)}>
            {label}
          </button>
        );
    }
  };
  const groups = ACTION_GROUPS.map((group) => ({
    group,
    buttons: actions
      .filter((action) => action.group === group)
      .map(button)
      .filter((b) => b !== null),
  })).filter((entry) => entry.buttons.length > 0);
  const Dialog = open?.target.kind === 'dialog' ? dialogOf(open.target) : null;

  // The dialog sits beside the buttons, not among them: it stays open, with its state, when its
  // change took the buttons away (the phase upgrade's confirmation, when it was the only action).
  return (
    <>
      {groups.length > 0 && (
        <section className="action-buttons" aria-labelledby="actions-title">
          <h2 id="actions-title">{t('subscription.actionsHeading')}</h2>
          {groups.map(({ group, buttons }) => (
            <div
              key={group}
              className={`action-group action-group-${group}`}
              role="group"
              aria-labelledby={`actions-${group}`}
            >
              <h3 id={`actions-${group}`}>{t(`subscription.actionGroup.${group}`)}</h3>
              <div className="button-row">{buttons}</div>
            </div>
          ))}
        </section>
      )}
      {Dialog && (
        <Suspense fallback={null}>
          <Dialog subscriptionId={s.id} onClose={() => setOpen(null)} onChanged={onChanged} />
        </Suspense>
      )}
    </>
  );
}
