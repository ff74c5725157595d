import { Badge } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTexts, type MessageKey } from '../../i18n';
import { notifyError } from '../../lib/toast';
import type { ScrapeJobStatus } from './api';

/** Document 2 §8: a failed call's destructive toast, titled 'Error': the server's `error`, else the spec's default. */
export function useFailureToast() {
  const { t } = useTexts();
  return (fallback: MessageKey) => (error: unknown) => notifyError(t('scraperAdmin.error'), error, t(fallback));
}

/**
 * Document 1 §8 / document 2 §8: a failed load is also told in a toast titled 'Error' with the
 * server's message or the default ('Failed to fetch products'), once per failure.
 */
export function useLoadFailureToast(query: UseQueryResult<unknown>, failed: MessageKey): void {
  const { t } = useTexts();
  const toasted = useRef(0);
  useEffect(() => {
    if (!query.isError || query.errorUpdatedAt === toasted.current) return;
    toasted.current = query.errorUpdatedAt;
    notifyError(t('scraperAdmin.error'), query.error, t(failed));
  });
}

export { ListState, Loading, SectionCard } from '../../components/SectionCard';

const statusPalette: Record<ScrapeJobStatus, string> = { pending: 'gray', in_progress: 'blue', completed: 'green', failed: 'red', cancelled: 'orange' };

export function JobStatusBadge({ status }: { status: ScrapeJobStatus }) {
  const { t } = useTexts();
  return (
    <Badge colorPalette={statusPalette[status]} data-testid="job-status" data-status={status}>
      {t(`scraperAdmin.jobStatus.${status}`)}
    </Badge>
  );
}

/**
 * For a table cell holding something visually hidden (a screen-reader header, a switch's input):
 * positioned, so that the hidden part scrolls with the table instead of widening the page.
 */
export const contained = { position: 'relative' } as const;
