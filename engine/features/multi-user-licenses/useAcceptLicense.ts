import { useState, type FormEvent } from 'react';
import { useLocation, useParams } from 'react-router';
import type { AcceptLicenseInfo } from '../../../schemas/generated/licenses';
import type { LicenseAcceptRequest } from '../../../schemas/generated/license-accept-request';
import { useTenantSettings } from '../../account/capabilityContext';
import { useSalutationOptions } from '../../account/changes/addressContext';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { usePortal } from '../../core/PortalContext';
import { acceptLicenseErrors, roleNeedsAcademicYear } from '../../domain/licenses';
import { fieldErrorsOf, type AcceptOutcome } from './licenseErrors';
import { useLinkInfo } from './useLinkInfo';
import { licensesApi } from './licensesApi';

export type AcceptBp = LicenseAcceptRequest['businessPartner'];
export type AcceptState = AcceptOutcome | 'loading' | 'accepted' | null;

/** The link's licence and its token, from the route and the query (account-flows.md §5 "Accept licence"). */
function useAcceptLink() {
  const { id = '', licenseId = '' } = useParams();
  const token = new URLSearchParams(useLocation().search).get('token') ?? '';
  return { id, licenseId, token };
}

/**
 * The accept page's state and calls (account-flows.md §2 "Licences", §5 "Accept licence", §8): the
 * link's info, the form's values and errors (engine/domain/licenses.ts, the server's the same), and
 * the accepting; a refused submit focuses the first field in error.
 */
export function useAcceptLicense() {
  const link = useAcceptLink();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const settings = tenant.multiUserLicenses;
  const titles = tenant.academicTitles.options;
  const [bp, setBp] = useState<AcceptBp>({
    salutationCode: '',
    titleAcademic: '',
    firstName: '',
    lastName1: '',
    company1: '',
  });
  const loaded = useLinkInfo<AcceptLicenseInfo, 'accepted'>(
    link.token,
    () => licensesApi(api).acceptInfo(link.id, link.licenseId, link.token),
    [link.id, link.licenseId],
    (answer) =>
      setBp((current) => ({
        ...current,
        // A code the tenant does not know is no choice the form could show or send: the person chooses.
        salutationCode: tenant.salutations.options.some(
          (option) => option.code === answer.businessPartner.salutationCode,
        )
          ? answer.businessPartner.salutationCode!
          : '',
        firstName: answer.businessPartner.firstName ?? '',
        lastName1: answer.businessPartner.lastName1 ?? '',
      })),
  );
  // The salutation the order system knows for the person stays on offer, also where the tenant does
  // not let people choose it (a company's): the form shows and sends what it was given.
  const salutations = useSalutationOptions(true, loaded.info?.businessPartner.salutationCode);
  const [role, setRole] = useState('');
  const [academicYear, setAcademicYear] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const { ref: formRef, refused } = useFocusFirstError();
  const needsYear = roleNeedsAcademicYear(settings, role);
  const set = (field: keyof AcceptBp) => (value: string) =>
    setBp((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const form = { businessPartner: bp, role: role || null, academicYear: needsYear ? academicYear : null };
    const found = acceptLicenseErrors(form, settings, {
      salutationCodes: salutations.map((s) => s.code),
      academicTitleCodes: titles.map((a) => a.code),
    });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      refused();
      return;
    }
    setSending(true);
    try {
      await licensesApi(api).accept(link.id, link.licenseId, {
        token: link.token,
        ...form,
        businessPartner: { ...bp, titleAcademic: bp.titleAcademic || null },
      });
      loaded.setOutcome('accepted');
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      if (fields) {
        setErrors(fields);
        refused();
      } else {
        loaded.refuse(caught);
      }
    } finally {
      setSending(false);
    }
  }

  return {
    ...loaded,
    settings,
    salutations,
    titles,
    bp,
    set,
    role,
    setRole,
    academicYear,
    setAcademicYear,
    needsYear,
    errors,
    sending,
    formRef,
    submit,
  };
}

export type AcceptLicenseModel = ReturnType<typeof useAcceptLicense>;
