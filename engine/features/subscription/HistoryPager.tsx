import { useTranslation } from '../../core/translation';
import { Pager } from '../../ui/Pager';

/** The pager of the subscription page's histories (§2: pages of 10, zero-based, one neighbour each side). */
export function HistoryPager({
  navKey,
  page,
  totalPages,
  onPage,
}: {
  navKey: string;
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Pager
      page={page}
      totalPages={totalPages}
      onPage={onPage}
      labels={{
        nav: t(navKey),
        previous: t('subscription.previousPage'),
        next: t('subscription.nextPage'),
        page: (n) => t('subscription.pageNumber', { page: n }),
      }}
    />
  );
}
