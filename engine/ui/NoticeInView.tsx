import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The notice of an action's outcome at the top of a screen, while the control that caused it may be
 * screens below (a phone, a long form, a long list): it takes the focus as it appears, which brings
 * it into view, and keyboard users go on from there (WCAG 2.4.3). Without it the screen looked
 * unchanged after "Send" and invited a second press. `shown`: the notice shown; another one takes
 * the focus again.
 */
export function NoticeInView({ shown, children }: { shown: unknown; children: ReactNode }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), [shown]);
  return (
    <div ref={notice} tabIndex={-1} className="notice-in-view">
      {children}
    </div>
  );
}
