import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { auditKeys, auditPaths, type AuditFilters, type AuditReply } from './api';

/**
 * The audit log, newest first, a page at a time: `fetchNextPage` (Load older) asks for the entries
 * older than the last page's (its `nextBefore`), and there is no next page once that is null.
 * Admins change things behind the page's back, so the list is asked for again each time the
 * section opens; a changed filter keeps the rows on screen until the new ones arrive.
 */
export const useAuditLog = (filters: AuditFilters) =>
  useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    queryFn: ({ pageParam }) => apiRequest<AuditReply>('GET', auditPaths.page(filters, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
