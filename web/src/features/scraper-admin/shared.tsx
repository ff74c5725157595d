import { Badge, Button, Card, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts, type MessageKey } from '../../i18n';
import { errorText } from '../../lib/api';
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

/** One card of a tab: its h2, a line about it, buttons on the right, and its body. */
export function SectionCard({ title, subtitle, actions, badge, testId, children }: { title: string; subtitle?: string; actions?: ReactNode; badge?: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <Card.Root size="sm" data-testid={testId} minW="0">
      <Card.Header>
        <Flex gap="3" justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap="1" flex="1" minW="56">
            <Flex gap="2" align="center" wrap="wrap">
              <Heading as="h2" size="md">{title}</Heading>
              {badge}
            </Flex>
            {subtitle && <Text fontSize="sm" color="fg.muted">{subtitle}</Text>}
          </Stack>
          {actions && <Flex gap="2" wrap="wrap">{actions}</Flex>}
        </Flex>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/**
 * A list's loading, failed and empty states; the rows (children) once there are some. A failed
 * load says so in the card with the server's words and a way to ask again.
 */
export function ListState({ query, failed, empty, count, children }: { query: UseQueryResult<unknown>; failed: string; empty: string; count: number; children: ReactNode }) {
  const { t } = useTexts();
  if (query.isPending) return <Loading />;
  return (
    <Stack gap="3">
      {query.isError && (
        <ErrorAlert
          title={failed}
          description={
            <>
              {errorText(query.error, query.error.message)}{' '}
              <Button size="xs" variant="outline" onClick={() => void query.refetch()} loading={query.isFetching}>{t('scraperAdmin.retry')}</Button>
            </>
          }
        />
      )}
      {query.isSuccess && count === 0 && <Text color="fg.muted" data-testid="empty">{empty}</Text>}
      {count > 0 && children}
    </Stack>
  );
}

export function Loading() {
  const { t } = useTexts();
  return (
    <Flex gap="3" align="center" role="status">
      <Spinner size="sm" />
      <Text>{t('scraperAdmin.loading')}</Text>
    </Flex>
  );
}

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
