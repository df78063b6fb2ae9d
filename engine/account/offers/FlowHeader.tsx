import { useEffect, useRef } from 'react';
import { useTranslation } from '../../core/translation';
import type { Subscription } from '../../../schemas/generated/subscription';

/** §2 "Header with the subscription": cover, name and order number above a flow's form. */
export function FlowHeader({
  subscription: s,
  titleId,
  title,
}: {
  subscription: Subscription;
  titleId: string;
  title: string;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // An action whose control went away while the next screen was still loading (a saved address
  // leads back to the addresses) left the focus on <main>, the shell's fallback when there is no
  // heading yet (engine/app/shell/useFocusRecovery.ts): the heading takes it once it is there, so
  // keyboard and screen-reader users start at the screen's beginning (WCAG 2.4.3).
  useEffect(() => {
    const h1 = heading.current;
    if (!h1 || document.activeElement !== h1.closest('main')) return;
    h1.tabIndex = -1;
    h1.focus({ preventScroll: true });
  }, []);
  return (
    <header className="flow-header">
      {s.coverImageUrl && <img className="cover" src={s.coverImageUrl} alt="" width={72} height={96} />}
      <div>
        <h1 id={titleId} ref={heading}>
          {title}
        </h1>
        <p className="flow-subscription">
          <strong>{s.displayName}</strong>
          <span className="muted">{t('account.flow.orderNumber', { orderNumber: s.orderNumber })}</span>
        </p>
      </div>
    </header>
  );
}
