import { useTranslation } from '../../core/translation';
import type { LoyaltyHistoryEntry } from '../../../schemas/generated/loyalty';
import { useResource } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { formatDate } from '../../domain/dates';
import { localized } from '../../ui/localized';
import { LoyaltyLayout } from './LoyaltyLayout';
import { loyaltyApi } from './loyaltyApi';

/** /loyalty-programme/history (account-flows.md §2): reward, date, code and the download or shop link. */
export default function LoyaltyHistoryScreen() {
  const { t, i18n } = useTranslation();
  const history = useResource<LoyaltyHistoryEntry[]>('loyalty-history', (client) =>
    loyaltyApi(client).history(),
  );
  const columns = [
    t('loyalty-programme.history.reward'),
    t('loyalty-programme.history.date'),
    t('loyalty-programme.history.code'),
    t('loyalty-programme.history.link'),
  ];
  return (
    <LoyaltyLayout>
      <h2 id="loyalty-history-title" data-page-section>
        {t('loyalty-programme.nav.history')}
      </h2>
      <ResourceView
        resource={history}
        errorKey="loyalty-programme.loadError"
        emptyKey="loyalty-programme.history.empty"
        isEmpty={noEntries}
      >
        {(entries) => (
          <table className="loyalty-history" aria-labelledby="loyalty-history-title">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={`${entry.rewardId}-${entry.timestamp}`}>
                  <td data-label={columns[0]}>{localized(entry.shortText, i18n.language)}</td>
                  <td data-label={columns[1]} className="nowrap">
                    {formatDate(entry.timestamp.slice(0, 10), i18n.language)}
                  </td>
                  <td data-label={columns[2]} className="nowrap loyalty-history-code">
                    {entry.couponCode ?? '—'}
                  </td>
                  <td data-label={columns[3]}>
                    {entry.targetURL ? (
                      <a href={entry.targetURL} target="_blank" rel="noreferrer">
                        {t('loyalty-programme.history.open')}
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ResourceView>
    </LoyaltyLayout>
  );
}
