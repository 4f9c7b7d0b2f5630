import { type OwnPasswordBody } from '@vrtc/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from './client';
import { routes } from './routes';

/**
 * The signed-in account changes its own password. The server ends the account's other sign-ins;
 * this one stays, so nothing cached needs refetching.
 */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (body: OwnPasswordBody) => api.call(routes.changeOwnPassword, { body }),
  });
}
