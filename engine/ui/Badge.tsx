export type BadgeTone = 'success' | 'warning' | 'error' | 'info' | 'open' | 'neutral';

export function Badge({ tone, children }: { tone: BadgeTone; children: string }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
