import { pageWindow } from '../domain/paging';

/**
 * Page buttons of a paged list (portal-core.md §2, §9): zero-based pages shown one-based, the
 * current page with one neighbour each side, plus previous and next.
 */
export function Pager({
  page,
  totalPages,
  onPage,
  labels,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  labels: { nav: string; previous: string; next: string; page: (n: number) => string };
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={labels.nav}>
      <button
        type="button"
        className="pager-button"
        disabled={page === 0}
        onClick={() => onPage(page - 1)}
        aria-label={labels.previous}
      >
        ‹
      </button>
      {pageWindow(page, totalPages).map((p) => (
        <button
          key={p}
          type="button"
          className={`pager-button${p === page ? ' pager-current' : ''}`}
          aria-current={p === page ? 'page' : undefined}
          aria-label={labels.page(p + 1)}
          onClick={() => onPage(p)}
        >
          {p + 1}
        </button>
      ))}
      <button
        type="button"
        className="pager-button"
        disabled={page >= totalPages - 1}
        onClick={() => onPage(page + 1)}
        aria-label={labels.next}
      >
        ›
      </button>
    </nav>
  );
}
