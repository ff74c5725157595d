import { useQuery } from '@tanstack/react-query';
import {
  keyKeys, type AccountList, type EmailsWithSlots, type ExpiryReport, type InvoiceList, type KeyList, type KeyStats, type PricingList, type ServiceCode, type SlotStats,
} from './api';

export const useKeyStats = () => useQuery<KeyStats>({ queryKey: keyKeys.stats });
export const useSlotStats = () => useQuery<SlotStats>({ queryKey: keyKeys.slots });

/** Every key, or those whose account e-mail or key contains the search text (the server matches). */
export const useKeys = (search: string) => useQuery<KeyList>({ queryKey: keyKeys.list(search), placeholderData: (previous) => previous });

export const useExpiringKeys = (enabled: boolean) => useQuery<KeyList>({ queryKey: keyKeys.expiring, enabled });
export const useRecentKeys = (enabled: boolean) => useQuery<KeyList>({ queryKey: keyKeys.recent, enabled });

/** The create dialog's existing e-mails with free slots, asked for once a service is chosen. */
export const useEmailsWithSlots = (service: ServiceCode | '') =>
  useQuery<EmailsWithSlots>({ queryKey: keyKeys.emailsWithSlots(service || 'NFX'), enabled: service !== '' });

/** Read when the report dialog opens, and again each time it does (statuses change as reminders go out). */
export const useExpiryReport = (open: boolean) => useQuery<ExpiryReport>({ queryKey: keyKeys.expiryReport, enabled: open, staleTime: 0 });

export const useAttentionInvoices = () => useQuery<InvoiceList>({ queryKey: keyKeys.attention });
export const usePricing = () => useQuery<PricingList>({ queryKey: keyKeys.pricing });

/** The accounts keys are profiles of, with whether their mailbox password is stored (masked). */
export const useAccounts = () => useQuery<AccountList>({ queryKey: keyKeys.accounts });
