import { useQuery } from '@tanstack/react-query';
import { customerKeysOf, type CustomerKeysReply, type CustomerSession } from './api';

export const useCustomerSession = () => useQuery<CustomerSession>({ queryKey: customerKeysOf.session });

/** Asked for once the session is known to be a customer's. */
export const useCustomerKeys = (enabled: boolean) => useQuery<CustomerKeysReply>({ queryKey: customerKeysOf.keys, enabled });
