import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { License, LicenseObject } from '../../../schemas/generated/licenses';
import { useTenantSettings } from '../../account/capabilityContext';
import { usePortal } from '../../core/PortalContext';
import {
  activeLicenseCount,
  canLicenseAction,
  isAtMaximum,
  licenseStatus,
  pageOf,
  type LicenseActor,
  type LicenseSettings,
} from '../../domain/licenses';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Dialog } from '../../ui/Dialog';
import { Pager } from '../../ui/Pager';
import { localized } from '../../ui/localized';
import { licensesApi } from './licensesApi';
import { PersonDialog } from './PersonDialog';
import { EmailText } from './EmailText';

const STATUS_TONE: Record<ReturnType<typeof licenseStatus>, BadgeTone> = {
  active: 'success',
  invited: 'warning',
  inactive: 'neutral',
};

/**
 * One licence object (account-flows.md §3: order number, publication, licences, max active,
 * self-service) with its licences in pages of 10 (§9). Actions only when self-service is on; add
 * is disabled at the maximum of active licences (§6).
 */
export function LicenseObjectCard({
  subscriptionId: id,
  object,
  actor,
  settings,
  run,
}: {
  subscriptionId: string;
  object: LicenseObject;
  actor: LicenseActor;
  settings: LicenseSettings;
  run: (action: () => Promise<unknown>, done: string) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<License | null>(null);
  const shown = pageOf(object.licenses, page);
  const titleId = `license-object-${object.orderNumber}`;
  const name = (l: License) =>
    [l.businessPartner.firstName, l.businessPartner.lastName1].filter(Boolean).join(' ') ||
    l.businessPartner.emailAddress;
  const roleTitle = (code: string | null) =>
    localized(tenant.multiUserLicenses.roles.find((r) => r.code === code)?.title, i18n.language) || code;
  const can = (action: Parameters<typeof canLicenseAction>[0], license?: License) =>
    canLicenseAction(action, actor, settings, object, license);
  const api$ = licensesApi(api);
  const atMaximum = isAtMaximum(object);

  return (
    <li className="card license-object" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('multi-user-licenses.object.title', { orderNumber: object.orderNumber })}</h3>
      <dl className="facts">
        <dt>{t('multi-user-licenses.object.publication')}</dt>
        <dd>{object.publicationName}</dd>
        <dt>{t('multi-user-licenses.object.active')}</dt>
        <dd data-testid="license-count">
          {t('multi-user-licenses.object.count', {
            active: activeLicenseCount(object),
            max: object.maxActiveLicenses,
          })}
        </dd>
      </dl>
      {!object.selfServiceEnabled && (
        <p className="muted">{t('multi-user-licenses.object.selfServiceOff')}</p>
      )}
      {object.selfServiceEnabled && (
        <div className="card-actions">
          <button
            type="button"
            className="button"
            disabled={!can('add')}
            aria-describedby={atMaximum ? `${titleId}-full` : undefined}
            onClick={() => setAdding(true)}
          >
            {t('multi-user-licenses.add')}
          </button>
          {atMaximum && (
            <p id={`${titleId}-full`} className="field-note muted">
              {t('multi-user-licenses.object.full')}
            </p>
          )}
        </div>
      )}
      {object.licenses.length === 0 ? (
        <p className="muted">{t('multi-user-licenses.object.empty')}</p>
      ) : (
        <ul className="plain-list license-list">
          {shown.items.map((l) => {
            const status = licenseStatus(l);
            return (
              <li key={l.id} className="license-person" data-testid="license">
                <span className="license-name">
                  <strong>{name(l)}</strong>{' '}
                  <Badge tone={STATUS_TONE[status]}>{t(`multi-user-licenses.status.${status}`)}</Badge>
                </span>
                <EmailText email={l.businessPartner.emailAddress} />
                {l.role && (
                  <span className="muted">
                    {roleTitle(l.role)}
                    {l.academicYear
                      ? ` · ${t('multi-user-licenses.academicYearShort', { year: l.academicYear })}`
                      : ''}
                  </span>
                )}
                {object.selfServiceEnabled && (
                  <span className="card-actions license-actions">
                    {l.isActive && can('deactivate', l) && (
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() =>
                          void run(
                            () => api$.setActive(id, object.orderNumber, l.id, false),
                            t('multi-user-licenses.deactivated', { name: name(l) }),
                          )
                        }
                      >
                        {t('multi-user-licenses.deactivate')}
                      </button>
                    )}
                    {!l.isActive && l.isReactivatable && (
                      <button
                        type="button"
                        className="button button-secondary"
                        disabled={!can('activate', l)}
                        onClick={() =>
                          void run(
                            () => api$.setActive(id, object.orderNumber, l.id, true),
                            t('multi-user-licenses.activated', { name: name(l) }),
                          )
                        }
                      >
                        {t('multi-user-licenses.activate')}
                      </button>
                    )}
                    {can('sendInvitation', l) && (
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() =>
                          void run(
                            () => api$.sendInvitation(id, object.orderNumber, l.id),
                            t('multi-user-licenses.invitationSent', {
                              email: l.businessPartner.emailAddress,
                            }),
                          )
                        }
                      >
                        {t('multi-user-licenses.resend')}
                      </button>
                    )}
                    {can('delete', l) && (
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => setDeleting(l)}
                      >
                        {t('multi-user-licenses.delete')}
                      </button>
                    )}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Pager
        page={shown.page}
        totalPages={shown.totalPages}
        onPage={setPage}
        labels={{
          nav: t('multi-user-licenses.pager', { orderNumber: object.orderNumber }),
          previous: t('multi-user-licenses.previous'),
          next: t('multi-user-licenses.next'),
          page: (n) => t('multi-user-licenses.page', { n }),
        }}
      />
      {adding && (
        <PersonDialog
          title={t('multi-user-licenses.addTitle')}
          intro={t('multi-user-licenses.addIntro')}
          submitLabel={t('multi-user-licenses.addSubmit')}
          salutationRequired={tenant.multiUserLicenses.requireSalutation}
          onClose={() => setAdding(false)}
          onSubmit={async (person) => {
            await api$.add(id, object.orderNumber, {
              businessPartner: person,
              reactivatable: true,
              sendInvitation: true,
            });
            setAdding(false);
            await run(
              async () => undefined,
              t('multi-user-licenses.added', { email: person.emailAddress ?? '' }),
            );
          }}
        />
      )}
      {deleting && (
        <Dialog
          title={t('multi-user-licenses.deleteTitle')}
          onClose={() => setDeleting(null)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setDeleting(null)}>
                {t('multi-user-licenses.cancel')}
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  const l = deleting;
                  setDeleting(null);
                  void run(
                    () => api$.remove(id, object.orderNumber, l.id),
                    t('multi-user-licenses.deleted', { name: name(l) }),
                  );
                }}
              >
                {t('multi-user-licenses.delete')}
              </button>
            </>
          }
        >
          <p>{t('multi-user-licenses.deleteText', { name: name(deleting) })}</p>
        </Dialog>
      )}
    </li>
  );
}
