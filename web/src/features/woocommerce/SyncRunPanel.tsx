import { Badge, Box, Card, Flex, Heading, HStack, Link, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts, type MessageKey } from '../../i18n';
import { sectionPath } from '../../shell/sections';
import { shopKeys, type SyncRun } from './api';
import { Count } from './Count';
import { useLatestSyncRun } from './queries';

const statusBadge: Record<SyncRun['status'], { label: MessageKey; palette: string }> = {
  running: { label: 'woocommerce.run.running', palette: 'blue' },
  finished: { label: 'woocommerce.run.finished', palette: 'green' },
  failed: { label: 'woocommerce.run.failed', palette: 'red' },
  cancelled: { label: 'woocommerce.run.cancelled', palette: 'orange' },
};

/**
 * The latest sync of all products: a progress bar (processed of total) while it runs, then its
 * counts and the products that failed, each named with the shop's reason.
 */
export function SyncRunPanel({ syncRequested }: { syncRequested: boolean }) {
  const { t } = useTexts();
  const latest = useLatestSyncRun(syncRequested);
  const run = latest.data?.data ?? null;
  useRefreshWhenRunEnds(run);

  return (
    <Card.Root size="sm" data-testid="sync-run">
      <Card.Header>
        <Flex justify="space-between" align="center" gap="2" wrap="wrap">
          <Heading as="h2" size="md">{t('woocommerce.syncTitle')}</Heading>
          {run && (
            <Flex gap="3" align="center">
              {/* The sync is a background run: its steps, Cancel and Retry are in Background work. */}
              <Link asChild fontSize="sm" colorPalette="blue" variant="underline">
                <RouterLink to={sectionPath('background-work', { run: run.id })} data-testid="sync-run-details">{t('woocommerce.runDetails')}</RouterLink>
              </Link>
              <Badge colorPalette={statusBadge[run.status].palette} data-testid="sync-run-status">{t(statusBadge[run.status].label)}</Badge>
            </Flex>
          )}
        </Flex>
      </Card.Header>
      <Card.Body>
        {latest.isError && <ErrorAlert title={t('woocommerce.syncRunError')} description={latest.error.message} />}
        {latest.isSuccess && !run && <Text color="fg.muted">{syncRequested ? t('woocommerce.syncStarting') : t('woocommerce.noSyncYet')}</Text>}
        {run && <RunView run={run} />}
      </Card.Body>
    </Card.Root>
  );
}

/** A run the sync request left running ends while it is polled: the mappings' last synced prices changed then. */
function useRefreshWhenRunEnds(run: SyncRun | null) {
  const queryClient = useQueryClient();
  const seen = useRef<Pick<SyncRun, 'id' | 'status'> | null>(null);
  useEffect(() => {
    const before = seen.current;
    seen.current = run ? { id: run.id, status: run.status } : null;
    if (run && before?.id === run.id && before.status === 'running' && run.status !== 'running') {
      void queryClient.invalidateQueries({ queryKey: shopKeys.mappings });
      void queryClient.invalidateQueries({ queryKey: shopKeys.reconciliation });
    }
  }, [run, queryClient]);
}

function RunView({ run }: { run: SyncRun }) {
  const { t, format } = useTexts();
  const running = run.status === 'running';
  return (
    <Stack gap="4">
      <Text fontSize="sm" color="fg.muted">
        {run.finishedAt
          ? t('woocommerce.runTimes', { started: format.dateTime(run.startedAt), finished: format.dateTime(run.finishedAt) })
          : t('woocommerce.runStarted', { started: format.dateTime(run.startedAt) })}
      </Text>
      {running && (
        // Until the run has counted what it must push, the bar moves without a figure.
        <Progress.Root value={run.total ? run.processed : null} max={Math.max(run.total, 1)} colorPalette="blue" data-testid="sync-progress">
          <HStack justify="space-between" mb="1">
            <Progress.Label>
              {run.total
                ? t('woocommerce.processed', { processed: format.number(run.processed), total: format.number(run.total) })
                : t('woocommerce.counting')}
            </Progress.Label>
            {run.total > 0 && <Progress.ValueText />}
          </HStack>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3" data-testid="sync-counts">
        <Count label={t('woocommerce.count.synced')} value={run.synced} palette={run.synced ? 'green' : undefined} testId="sync-synced" />
        <Count label={t('woocommerce.count.failed')} value={run.failed} palette={run.failed ? 'red' : undefined} testId="sync-failed" />
        <Count label={t('woocommerce.count.skipped')} value={run.skipped} testId="sync-skipped" />
        <Count label={t('woocommerce.count.total')} value={run.total} testId="sync-total" />
      </SimpleGrid>
      {run.error && <ErrorAlert title={t('woocommerce.runStopped')} description={run.error} />}
      {run.failures.length > 0 && (
        <Box>
          <Heading as="h3" size="sm" mb="2">{t('woocommerce.failures')}</Heading>
          <Stack as="ul" gap="2" data-testid="sync-failures">
            {run.failures.map((failure) => (
              <Box as="li" key={failure.productName} listStyleType="none" borderLeftWidth="3px" borderColor="red.500" ps="3">
                <Text fontWeight="medium">{failure.productName}</Text>
                <Text fontSize="sm" color="fg.muted" wordBreak="break-word">{failure.error}</Text>
              </Box>
            ))}
          </Stack>
        </Box>
      )}
    </Stack>
  );
}
