import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import {
  qpayKeys, qpayPaths, type ApproveReply, type CreateInvoiceReply, type NewInvoice, type QpaySettingsInput, type RecheckReply, type RotateSecretReply, type SaveSettingsReply,
  type TestWebhookReply,
} from './api';

/** Whatever changes an invoice changes the two lists and writes a log line. */
const invoiceLists = [qpayKeys.pending, qpayKeys.recent, qpayKeys.logs];

/**
 * An action refused on an invoice (paid by its callback meanwhile, deleted in another tab) means
 * the lists on screen are out of date: they are read again after a failure too.
 */
function useRefreshAfterFailure<TData, TVariables>(options: CallerOptions<TData, TVariables> = {}): CallerOptions<TData, TVariables> {
  const queryClient = useQueryClient();
  return {
    ...options,
    onError: (...args) => {
      for (const queryKey of invoiceLists) void queryClient.invalidateQueries({ queryKey });
      return options.onError?.(...args);
    },
  };
}

/** The reply carries the saved settings: they replace the cached ones without another read. */
export function useSaveSettings(options: CallerOptions<SaveSettingsReply, QpaySettingsInput> = {}) {
  const queryClient = useQueryClient();
  return useInvalidatingMutation((settings: QpaySettingsInput) => apiRequest<SaveSettingsReply>('POST', qpayPaths.settings, settings), [], {
    ...options,
    onSuccess: (reply, ...rest) => {
      queryClient.setQueryData(qpayKeys.settings, reply.settings);
      return options.onSuccess?.(reply, ...rest);
    },
  });
}

/** A fresh webhook secret: the reply's settings (the new secret masked) replace the cached ones. */
export function useRotateWebhookSecret(options: CallerOptions<RotateSecretReply, void> = {}) {
  const queryClient = useQueryClient();
  return useInvalidatingMutation(() => apiRequest<RotateSecretReply>('POST', qpayPaths.rotateWebhookSecret), [], {
    ...options,
    onSuccess: (reply, ...rest) => {
      queryClient.setQueryData(qpayKeys.settings, reply.settings);
      return options.onSuccess?.(reply, ...rest);
    },
  });
}

/** The test goes through the real chat webhook: it may make an invoice and always writes a log line. */
export const useTestWebhook = (options?: CallerOptions<TestWebhookReply, unknown>) =>
  useInvalidatingMutation((payload: unknown) => apiRequest<TestWebhookReply>('POST', qpayPaths.testWebhook, payload), invoiceLists, options);

export const useCreateInvoice = (options?: CallerOptions<CreateInvoiceReply, NewInvoice>) =>
  useInvalidatingMutation((invoice: NewInvoice) => apiRequest<CreateInvoiceReply>('POST', qpayPaths.createInvoice, invoice), invoiceLists, options);

export const useApproveInvoice = (options?: CallerOptions<ApproveReply, string>) =>
  useInvalidatingMutation((invoiceId: string) => apiRequest<ApproveReply>('POST', qpayPaths.approve(invoiceId)), invoiceLists, useRefreshAfterFailure(options));

export const useDeleteInvoice = (options?: CallerOptions<unknown, string>) =>
  useInvalidatingMutation((invoiceId: string) => apiRequest('DELETE', qpayPaths.remove(invoiceId)), invoiceLists, useRefreshAfterFailure(options));

export const useRecheckInvoice = (options?: CallerOptions<RecheckReply, string>) =>
  useInvalidatingMutation((invoiceId: string) => apiRequest<RecheckReply>('POST', qpayPaths.recheck(invoiceId)), invoiceLists, useRefreshAfterFailure(options));
