import { apiRequest } from '../../lib/api';
import { apiKey } from '../../lib/paths';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import {
  keyKeys, keyLists, keyPaths, type AssignKeyReply, type RefundReply, type CustomerIdReply, type Extension, type ExtendReply, type MailboxPassword, type MailboxPasswordReply,
  type NewInvoice, type NewInvoiceReply, type NewKeys, type NewKeysReply, type NewPrice, type NewPriceReply, type PriceUpdateReply, type QrReply, type TestNotificationReply,
} from './api';

export const useCreateKeys = (options?: CallerOptions<NewKeysReply, NewKeys>) =>
  useInvalidatingMutation((keys: NewKeys) => apiRequest<NewKeysReply>('POST', keyPaths.keys, keys), keyLists, options);

export const useExtendKey = (options?: CallerOptions<ExtendReply, Extension>) =>
  useInvalidatingMutation((extension: Extension) => apiRequest<ExtendReply>('POST', keyPaths.extend, extension), keyLists, options);

export const useDeleteKey = (options?: CallerOptions<unknown, number>) =>
  useInvalidatingMutation((id: number) => apiRequest('DELETE', keyPaths.key(id)), keyLists, options);

/** A customer id makes a key held (or free again): the slots and the report change with it. */
export const useUpdateCustomerId = (options?: CallerOptions<CustomerIdReply, { id: number; customerId: string | null }>) =>
  useInvalidatingMutation(({ id, customerId }) => apiRequest<CustomerIdReply>('PATCH', keyPaths.customerId(id), { customerId }), keyLists, options);

/** A QR code changes no list. */
export const useGenerateQr = (options?: CallerOptions<QrReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<QrReply>('POST', keyPaths.qr(id)), [], options);

export const useTestNotification = (options?: CallerOptions<TestNotificationReply, string>) =>
  useInvalidatingMutation((userId: string) => apiRequest<TestNotificationReply>('POST', keyPaths.testNotification, { userId }), [], options);

export const useCreateInvoice = (options?: CallerOptions<NewInvoiceReply, NewInvoice>) =>
  useInvalidatingMutation((invoice: NewInvoice) => apiRequest<NewInvoiceReply>('POST', keyPaths.invoices, invoice), [keyKeys.invoices], options);

/** Assigning takes a free key: the invoice leaves the attention list and the key lists change. */
export const useAssignKey = (options?: CallerOptions<AssignKeyReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<AssignKeyReply>('POST', keyPaths.assignKey(id)), [keyKeys.invoices, ...keyLists], options);

/** A refund closes the order: it leaves the attention list, and its invoice shows the refund on /qpay. */
export const useRefundOrder = (options?: CallerOptions<RefundReply, number>) =>
  useInvalidatingMutation((id: number) => apiRequest<RefundReply>('POST', keyPaths.refund(id)), [keyKeys.invoices, apiKey('/api/qpay/invoices/recent')], options);

export const useCreatePrice = (options?: CallerOptions<NewPriceReply, NewPrice>) =>
  useInvalidatingMutation((price: NewPrice) => apiRequest<NewPriceReply>('POST', keyPaths.pricing, price), [keyKeys.pricing], options);

export const useUpdatePrice = (options?: CallerOptions<PriceUpdateReply, { id: number; price: number }>) =>
  useInvalidatingMutation(({ id, price }) => apiRequest<PriceUpdateReply>('PUT', keyPaths.price(id), { price }), [keyKeys.pricing], options);

export const useDeletePrice = (options?: CallerOptions<unknown, number>) =>
  useInvalidatingMutation((id: number) => apiRequest('DELETE', keyPaths.price(id)), [keyKeys.pricing], options);

/** The account's mailbox password (ADR 15): the accounts list shows it set, masked. */
export const useSetMailboxPassword = (options?: CallerOptions<MailboxPasswordReply, MailboxPassword>) =>
  useInvalidatingMutation((body: MailboxPassword) => apiRequest<MailboxPasswordReply>('PUT', keyPaths.mailbox, body), [keyKeys.accounts], options);
