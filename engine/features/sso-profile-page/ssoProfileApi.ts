/** The calls of the SSO profile page (account-flows.md §7), each path written once. */
import type { SsoMessageAnswer, SsoProfile } from '../../../schemas/generated/sso-profile';
import type { ApiClient } from '../../core/apiClient';

export function ssoProfileApi(api: ApiClient) {
  return {
    profile: () => api.get<SsoProfile>('/sso-profile/getProfile'),
    updatePassword: (body: { currentPassword?: string; newPassword: string }) =>
      api.post<SsoMessageAnswer>('/sso-profile/executeUpdatePassword', body),
    updateEmail: (email: string) => api.post<SsoMessageAnswer>('/sso-profile/updateUser', { email }),
    confirmEmail: (token: string) =>
      api.post<SsoMessageAnswer & { email: string }>('/sso-profile/confirmEmail', { token }),
    undoEmailChange: (token: string) => api.post<SsoMessageAnswer>('/sso-profile/undoEmailChange', { token }),
    undoLinkState: (token: string) =>
      api.get<{ open: boolean }>(`/sso-profile/undoEmailChange/state?token=${encodeURIComponent(token)}`),
    deleteUser: (email: string) => api.post<SsoMessageAnswer>('/sso-profile/deleteUser', { email }),
  };
}
