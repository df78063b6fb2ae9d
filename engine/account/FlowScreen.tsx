import type { ReactNode } from 'react';
import type { Subscription } from '../../schemas/generated/subscription';
import { ErrorDialog } from '../ui/ErrorDialog';
import { Loading } from '../ui/Loading';
import type { FlowRefusal } from './flowRefusal';
import { FlowUnavailable } from './FlowUnavailable';
import { FlowHeader } from './offers/FlowHeader';
import type { Resource } from './resource';

/**
 * The frame of a subscription's flow page (account-flows.md §2 "Header with the subscription",
 * §6, §8): the prologue every flow screen starts with, written once.
 *
 * - while the subscription loads, the loading notice;
 * - when it fails to load, the generic error dialog, whose close goes where the flow's back goes;
 * - when the flow's capability rule refuses the subscription (§6), FlowUnavailable with the flow's
 *   heading, instead of the page's calls failing with 403/409;
 * - else the flow's section, labelled by its own h1 in the subscription's header (FlowHeader), and
 *   the content.
 *
 * It lives in the account kit, not in engine/ui, because the notice and the header are the account
 * kit's (engine/ui imports only engine/core and engine/domain).
 */
export function FlowScreen({
  subscription,
  refusal,
  onClose,
  titleId,
  title,
  className,
  unavailableTexts,
  keepWhileLoading = false,
  section = true,
  children,
}: {
  subscription: Resource<Subscription>;
  /**
   * Why the flow refuses the subscription (useFlowRefusal), or null. A function when the answer
   * depends on the subscription shown (cancellation opens its form only for some states).
   */
  refusal: FlowRefusal | null | ((s: Subscription) => FlowRefusal | null);
  /** Where the error dialog's close goes: the flow's back, usually. */
  onClose: () => void;
  /** The h1's id, which labels the section (and FlowUnavailable's). */
  titleId: string;
  /** The flow's heading (translated). */
  title: string;
  /** The flow's section classes, the notice's too, so the page keeps its layout. */
  className?: string;
  /** The flow's own sentences for some refusals (FlowUnavailable's `texts`). */
  unavailableTexts?: Partial<Record<FlowRefusal, string>>;
  /**
   * While the subscription loads again (after a change), keep the page with the previous one
   * rather than the loading notice, so a form or a notice does not vanish under the user.
   */
  keepWhileLoading?: boolean;
  /** False when the content renders its own section and header (the e-card form, an offer page). */
  section?: boolean;
  children: (s: Subscription) => ReactNode;
}) {
  const { state } = subscription;
  if (state.status === 'failed') return <ErrorDialog onClose={onClose} />;
  const s = state.status === 'ready' ? state.data : keepWhileLoading ? state.previous : undefined;
  if (!s) return <Loading />;
  const refused = typeof refusal === 'function' ? refusal(s) : refusal;
  if (refused) {
    return (
      <FlowUnavailable
        subscription={s}
        refusal={refused}
        titleId={titleId}
        title={title}
        className={className}
        texts={unavailableTexts}
      />
    );
  }
  if (!section) return <>{children(s)}</>;
  return (
    <section className={className} aria-labelledby={titleId}>
      <FlowHeader subscription={s} titleId={titleId} title={title} />
      {children(s)}
    </section>
  );
}

/** The subscription a flow's rule is checked against: the loaded one, not one still loading again. */
export const loadedSubscription = (subscription: Resource<Subscription>): Subscription | undefined =>
  subscription.state.status === 'ready' ? subscription.state.data : undefined;
