import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { isStaleFileError } from '../domain/clientErrorKinds';
import { Link } from './links';
import { useTranslation } from './translation';

interface BoundaryProps {
  children: ReactNode;
  /** What stands in a failed part's place; without it, the notice of a failed screen. */
  fallback?: ReactNode;
}

/**
 * Keeps a failing screen from taking the page with it: React unmounts the whole tree on an error
 * no boundary catches, which leaves a subscriber a blank page. What failed is shown in the
 * screen's place, in the screen's language, with the way on: a reload, or the overview. A script
 * file that did not load (a tab left open over a deploy, or the connection lost) is told apart: a
 * reload is all it takes. Another path clears the failure. The report goes through the root's
 * `onCaughtError` (engine/app/main.tsx), like every other error React catches.
 */
export function ScreenErrorBoundary(props: BoundaryProps) {
  return <PathBoundary {...props} path={useLocation().pathname} />;
}

class PathBoundary extends Component<
  BoundaryProps & { path: string },
  { error: unknown; failedAt?: string }
> {
  state: { error: unknown; failedAt?: string } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown') };
  }

  static getDerivedStateFromProps(props: { path: string }, state: { error: unknown; failedAt?: string }) {
    if (state.error === undefined) return null;
    if (state.failedAt === undefined) return { failedAt: props.path };
    return state.failedAt === props.path ? null : { error: undefined, failedAt: undefined };
  }

  render() {
    if (this.state.error === undefined) return this.props.children;
    if (this.props.fallback !== undefined) return this.props.fallback;
    return (
      <ScreenFailed stale={isStaleFileError(this.state.error)} onOverview={this.props.path === '/orders'} />
    );
  }
}

function ScreenFailed({ stale, onOverview }: { stale: boolean; onOverview: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="notice-page" role="alert" aria-labelledby="screen-failed-title">
      <h1 id="screen-failed-title">{t(stale ? 'shell.staleBuildTitle' : 'shell.errorTitle')}</h1>
      <p>{t(stale ? 'shell.staleBuildText' : 'shell.screenFailedText')}</p>
      <p className="notice-actions">
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('shell.reloadPage')}
        </button>
        {/* The overview, unless this is it: a link to the page itself would do nothing. */}
        {!stale && !onOverview && <Link to="/orders">{t('shell.toOverview')}</Link>}
      </p>
    </section>
  );
}
