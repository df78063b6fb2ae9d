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
  return (
    <header className="flow-header">
      {s.coverImageUrl && <img className="cover" src={s.coverImageUrl} alt="" width={72} height={96} />}
      <div>
        <h1 id={titleId}>{title}</h1>
        <p className="flow-subscription">
          <strong>{s.displayName}</strong>
          <span className="muted">{t('account.flow.orderNumber', { orderNumber: s.orderNumber })}</span>
        </p>
      </div>
    </header>
  );
}
