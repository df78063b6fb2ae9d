import { Component, type ReactNode } from 'react';
import { isStaleFileError } from '../domain/staleBuild';
import { Link } from './links';
import { useTranslation } from './translation';

/**
 * Keeps a failing screen from taking the page with it: React unmounts the whole tree on an error
 * no boundary catches, which leaves a subscriber a blank page. What failed is shown in the
 * screen's place, in the screen's language, with the way on: a reload, or the overview. A file of
 * an older build that no longer loads (a tab left open over a deploy) is told apart: a reload is
 * all it takes. Another path clears the error. The report goes through the root's
 * `onCaughtError` (engine/app/main.tsx), like every other error React catches.
 */
export class ScreenErrorBoundary extends Component<
  { resetKey: string; children: ReactNode; fallback?: 'notice' | 'nothing' },
  { error: unknown; failedAt: string | undefined }
> {
  state = { error: undefined as unknown, failedAt: undefined as string | undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown') };
  }

  static getDerivedStateFromProps(
    props: { resetKey: string },
    state: { error: unknown; failedAt: string | undefined },
  ) {
    if (state.error === undefined) return null;
    if (state.failedAt === undefined) return { failedAt: props.resetKey };
    return state.failedAt === props.resetKey ? null : { error: undefined, failedAt: undefined };
  }

  render() {
    if (this.state.error === undefined) return this.props.children;
    if (this.props.fallback === 'nothing') return null;
    return <ScreenFailed stale={isStaleFileError(this.state.error)} />;
  }
}

function ScreenFailed({ stale }: { stale: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="notice-page" role="alert" aria-labelledby="screen-failed-title">
      <h1 id="screen-failed-title">{t(stale ? 'shell.staleBuildTitle' : 'shell.errorTitle')}</h1>
      <p>{t(stale ? 'shell.staleBuildText' : 'shell.screenFailedText')}</p>
      <p className="notice-actions">
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('shell.reloadPage')}
        </button>
        {!stale && <Link to="/orders">{t('shell.toOverview')}</Link>}
      </p>
    </section>
  );
}
