import type { ReplyOf, systemInfo } from '@bo/proto';
import { useQuery } from '@tanstack/react-query';
import { apiKey } from '../lib/paths';

/** The runtime note of the sidebar footer (admins only: /api does not tell anonymous callers). */
export const useServerInfo = () => useQuery<ReplyOf<typeof systemInfo>>({ queryKey: apiKey('/api/admin/system') });
