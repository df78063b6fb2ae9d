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
import { Pager } from '../../ui/Pager';
import { localized } from '../../ui/localized';
import { licensesApi } from './licensesApi';
import { PersonDialog } from './PersonDialog';
import { ConfirmRemoval, LicensePerson, personName } from './LicenseParts';

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
  run: Run;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<License | null>(null);
  const shown = pageOf(object.licenses, page);
  const titleId = `license-object-${object.orderNumber}`;
  const can: Can = (action, license) => canLicenseAction(action, actor, settings, object, license);
  const api$ = licensesApi(api);

  return (
    <li className="card license-object" aria-labelledby={titleId}>
      <ObjectFacts object={object} titleId={titleId} canAdd={can('add')} onAdd={() => setAdding(true)} />
      {object.licenses.length === 0 ? (
        <p className="muted">{t('multi-user-licenses.object.empty')}</p>
      ) : (
        <ul className="plain-list license-list">
          {shown.items.map((l) => (
            <LicenseRow
              key={l.id}
              subscriptionId={id}
              license={l}
              object={object}
              can={can}
              run={run}
              onDelete={() => setDeleting(l)}
            />
          ))}
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
        <ConfirmRemoval
          title={t('multi-user-licenses.deleteTitle')}
          text={t('multi-user-licenses.deleteText', { name: licenseeName(deleting) })}
          confirmLabel={t('multi-user-licenses.delete')}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            void run(
              () => api$.remove(id, object.orderNumber, deleting.id),
              t('multi-user-licenses.deleted', { name: licenseeName(deleting) }),
            )
          }
        />
      )}
    </li>
  );
}

type Run = (action: () => Promise<unknown>, done: string) => Promise<void>;
type Can = (action: Parameters<typeof canLicenseAction>[0], license?: License) => boolean;

/** The licensee's name, else their e-mail address. */
const licenseeName = (l: License) => personName(l.businessPartner) || l.businessPartner.emailAddress;

/** The object's title and facts, and add (self-service only; disabled at the maximum, §6). */
function ObjectFacts({
  object,
  titleId,
  canAdd,
  onAdd,
}: {
  object: LicenseObject;
  titleId: string;
  canAdd: boolean;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const atMaximum = isAtMaximum(object);
  return (
    <>
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
            disabled={!canAdd}
            aria-describedby={atMaximum ? `${titleId}-full` : undefined}
            onClick={onAdd}
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
    </>
  );
}

/**
 * A licence: its person with the status, the role and academic year, and (self-service only) the
 * actions the rules allow — deactivate, activate, resend the invitation, delete.
 */
function LicenseRow({
  subscriptionId: id,
  license: l,
  object,
  can,
  run,
  onDelete,
}: {
  subscriptionId: string;
  license: License;
  object: LicenseObject;
  can: Can;
  run: Run;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const api$ = licensesApi(api);
  const status = licenseStatus(l);
  const name = licenseeName(l);
  const roleTitle = (code: string | null) =>
    localized(tenant.multiUserLicenses.roles.find((r) => r.code === code)?.title, i18n.language) || code;
  return (
    <LicensePerson
      testId="license"
      name={name}
      badge={<Badge tone={STATUS_TONE[status]}>{t(`multi-user-licenses.status.${status}`)}</Badge>}
      email={l.businessPartner.emailAddress}
      note={
        l.role && (
          <>
            {roleTitle(l.role)}
            {l.academicYear
              ? ` · ${t('multi-user-licenses.academicYearShort', { year: l.academicYear })}`
              : ''}
          </>
        )
      }
    >
      {object.selfServiceEnabled && (
        <span className="card-actions license-actions">
          {l.isActive && can('deactivate', l) && (
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                void run(
                  () => api$.setActive(id, object.orderNumber, l.id, false),
                  t('multi-user-licenses.deactivated', { name }),
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
                  t('multi-user-licenses.activated', { name }),
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
                  t('multi-user-licenses.invitationSent', { email: l.businessPartner.emailAddress }),
                )
              }
            >
              {t('multi-user-licenses.resend')}
            </button>
          )}
          {can('delete', l) && (
            <button type="button" className="button button-secondary" onClick={onDelete}>
              {t('multi-user-licenses.delete')}
            </button>
          )}
        </span>
      )}
    </LicensePerson>
  );
}
