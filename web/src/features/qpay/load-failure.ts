import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTexts } from '../../i18n';
import { notifyError } from '../../lib/toast';

/**
 * Document 3 §8: a failed load is also told in a toast titled 'Error', with the server's message
 * or the spec's 'Failed to fetch ...' — once per failure, not again on every render or retry of the page.
 */
export function useLoadFailureToast(query: UseQueryResult<unknown>, failed: string): void {
  const { t } = useTexts();
  const toasted = useRef(0);
  useEffect(() => {
    if (!query.isError || query.errorUpdatedAt === toasted.current) return;
    toasted.current = query.errorUpdatedAt;
    notifyError(t('qpay.error'), query.error, failed);
  });
}
