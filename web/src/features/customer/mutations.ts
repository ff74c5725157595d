import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, forgetCsrfToken } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import { customerKeysOf, customerPaths, type CustomerCredentials, type CustomerQrReply, type LoginReply, type ParseEmailType } from './api';
import type { ParseEmailReply } from './fetch-result';

/**
 * Signing in or out changes the session (a new id at sign-in, none after logout): the old CSRF
 * token goes, and every customer query is dropped so the next page asks afresh.
 */
function useSessionChange<TData, TVariables>(call: (variables: TVariables) => Promise<TData>, options: CallerOptions<TData, TVariables>) {
  const queryClient = useQueryClient();
  return useMutation<TData, Error, TVariables>({
    ...options,
    mutationFn: async (variables) => {
      const reply = await call(variables);
      forgetCsrfToken();
      queryClient.removeQueries({ queryKey: customerKeysOf.all });
      return reply;
    },
  });
}

export const useCustomerLogin = (options: CallerOptions<LoginReply, CustomerCredentials> = {}) =>
  useSessionChange((credentials: CustomerCredentials) => apiRequest<LoginReply>('POST', customerPaths.login, credentials), options);

export const useCustomerLogout = (options: CallerOptions<unknown, void> = {}) =>
  useSessionChange(() => apiRequest('POST', customerPaths.logout), options);

/** A QR code changes nothing cached. */
export const useCustomerQr = (options?: CallerOptions<CustomerQrReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<CustomerQrReply>('POST', customerPaths.qr(id)), [], options);

/** Reads the mailbox now; nothing cached changes. */
export const useParseEmail = (options?: CallerOptions<ParseEmailReply, { type: ParseEmailType; keyId: number }>) =>
  useInvalidatingMutation((body: { type: ParseEmailType; keyId: number }) => apiRequest<ParseEmailReply>('POST', customerPaths.parseEmail, body), [], options);
