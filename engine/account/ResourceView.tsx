import type { ReactNode } from 'react';
import { useTranslation } from '../core/translation';
import { Alert } from '../ui/Alert';
import { Loading } from '../ui/Loading';
import type { Resource } from './resource';

/**
 * The one rendering of a resource's states: the loading notice, the error with "try again"
 * (portal-core.md §2 "Error state offers try again"), the empty notice, or the content.
 * `errorKey` and `emptyKey` (or `empty`) are the feature's own text keys (the message names what failed);
 * `keepWhileLoading` keeps the previous content on screen during a reload (paged lists).
 */
export function ResourceView<T>({
  resource,
  errorKey,
  emptyKey,
  empty,
  isEmpty,
  keepWhileLoading = false,
  fillsPage = false,
  children,
}: {
  resource: Resource<T>;
  errorKey: string;
  emptyKey?: string;
  /** The empty notice's content when it is more than one text (a hint with a link). */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  keepWhileLoading?: boolean;
  /** The resource is the page's content: its loading notice holds a screen's height (engine/ui/Loading.tsx). */
  fillsPage?: boolean;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { state, reload } = resource;
  if (state.status === 'failed') {
    return (
      <Alert variant="error">
        <p>{t(errorKey)}</p>
        <button type="button" className="button button-secondary" onClick={reload}>
          {t('shell.tryAgain')}
        </button>
      </Alert>
    );
  }
  if (state.status === 'loading') {
    return (
      <>
        <Loading fillsPage={fillsPage} />
        {keepWhileLoading && state.previous !== undefined && children(state.previous)}
      </>
    );
  }
  if ((emptyKey || empty) && isEmpty?.(state.data))
    return <Alert variant="info">{empty ?? <p>{t(emptyKey!)}</p>}</Alert>;
  return <>{children(state.data)}</>;
}

/** Empty when a list has no entries: the common `isEmpty`. */
export const noEntries = (list: readonly unknown[]) => list.length === 0;
