import type { MfaProofBody, PasskeyRegisterBody } from '@vrtc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { routes } from './routes';

/** The signed-in account's own second factors (decision 031). */
export const mfaKeys = { status: ['mfa', 'status'] as const };

export function useMfaStatus() {
  return useQuery({ queryKey: mfaKeys.status, queryFn: () => api.call(routes.mfaStatus) });
}

const useMfaMutation = <T, R>(run: (input: T) => Promise<R>) =>
  useRefreshingMutation(mfaKeys.status, run);

export const useStartTotp = () => useMfaMutation(() => api.call(routes.startTotp));
export const useConfirmTotp = () =>
  useMfaMutation((code: string) => api.call(routes.confirmTotp, { body: { code } }));
export const useRemoveTotp = () =>
  useMfaMutation((body: MfaProofBody) => api.call(routes.removeTotp, { body }));
export const useRemovePasskey = () =>
  useMfaMutation((id: string) => api.call(routes.removePasskey, { params: { id } }));

/**
 * Registers a passkey: the server's options, the browser's new credential (WebAuthn, through
 * @simplewebauthn/browser, loaded only now), then the credential under its name.
 */
export const useAddPasskey = () =>
  useMfaMutation(async (name: string) => {
    const { options } = await api.call(routes.passkeyRegistrationOptions);
    const { startRegistration } = await import('@simplewebauthn/browser');
    const credential = await startRegistration({
      optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'],
    });
    const body: PasskeyRegisterBody = { name, credential: JSON.stringify(credential) };
    return api.call(routes.addPasskey, { body });
  });

/** The platform's own setting: platform admins must have a second factor (platform admins only). */
export const mfaPolicyKeys = { policy: ['admin', 'mfa-policy'] as const };

export function useMfaPolicy() {
  return useQuery({
    queryKey: mfaPolicyKeys.policy,
    queryFn: ({ signal }) => api.call(routes.getMfaPolicy, { signal }),
  });
}

export function usePutMfaPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (admins_required: boolean) =>
      api.call(routes.putMfaPolicy, { body: { admins_required } }),
    onSuccess: (policy) => client.setQueryData(mfaPolicyKeys.policy, policy),
  });
}
