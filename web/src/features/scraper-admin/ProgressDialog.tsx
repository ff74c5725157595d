import { Alert, Box, Button, DataList, Flex, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts } from '../../i18n';
import { clock, ELAPSED_TICK_MS, endingEvents, isActiveJob, progressPercent, remainingMs, scraperKeys, scraperPaths, type ScrapeJob } from './api';
import { elapsedMs, followJobProgress, initialProgress, progressOf, type JobProgress, type StreamState } from './events';
import { useCancelJob } from './mutations';
import { JobStatusBadge } from './shared';

/**
 * Follows a job's progress stream while the dialog is open (document 2 §4): each event updates what
 * it shows; at the job's end the products, games, comparison and jobs are asked for again and the
 * stream closes. The stream closes too when the dialog does.
 */
function useJobProgress(jobId: number, initial: ScrapeJob | undefined): { progress: JobProgress; stream: StreamState } {
  const { t } = useTexts();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<JobProgress>(() => initialProgress(initial ?? null));
  const [stream, setStream] = useState<StreamState>('connecting');
  const defaults = useRef({ pageError: '', jobError: '' });
  useEffect(() => {
    defaults.current = { pageError: t('scraperAdmin.progress.unknownError'), jobError: t('scraperAdmin.progress.jobFailed') };
  });
  useEffect(() => {
    const close = followJobProgress(scraperPaths.progress(jobId), {
      onEvent: (name, data) => {
        const now = Date.now();
        const texts = defaults.current;
        setProgress((state) => progressOf(state, name, data, now, texts));
        if ((endingEvents as readonly string[]).includes(name)) {
          for (const queryKey of [scraperKeys.productsAll, scraperKeys.games, scraperKeys.comparison, scraperKeys.jobs]) void queryClient.invalidateQueries({ queryKey });
        }
      },
      onState: setStream,
    });
    return close;
  }, [jobId, queryClient]);
  return { progress, stream };
}

/** The time now, moving every second (document 2 §9) while `ticking`, else still. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), ELAPSED_TICK_MS);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * The Scraping Progress dialog: the job's status and what it is doing, the percent of its pages
 * done, its pages and products, the time taken and an estimate of the time left, the last page's
 * error, and 'Connection lost...' while the stream is down and the job may still be running.
 */
export function ProgressDialog({ jobId, initial, onClose }: { jobId: number; initial?: ScrapeJob; onClose: () => void }) {
  const { t, format } = useTexts();
  const { progress, stream } = useJobProgress(jobId, initial);
  const active = isActiveJob(progress);
  const now = useNow(active && progress.timerStartedAt !== null);
  const cancel = useCancelJob({ onError: (error) => console.error('Failed to cancel job', error) });
  const percent = progressPercent(progress.currentPage, progress.totalPages);
  const elapsed = elapsedMs(progress, now);
  const left = active ? remainingMs(elapsed, progress.currentPage, progress.totalPages) : null;
  // The page a page_start named; joined mid-way (a reconnect's init), the first page not done yet.
  const job = progress.job;
  const activePage = progress.activePage ?? (job ? Math.min(job.startPage + progress.currentPage, job.endPage) : null);
  const name = job?.marketplaceName ?? initial?.marketplaceName ?? '';
  const statusText =
    progress.status === 'pending' ? t('scraperAdmin.progress.waiting')
    : progress.status === 'in_progress' ? (activePage !== null ? t('scraperAdmin.progress.scrapingPage', { page: activePage }) : t('scraperAdmin.progress.starting'))
    : progress.status === 'completed' ? t('scraperAdmin.progress.completed', { count: progress.totalProducts })
    : progress.status === 'failed' ? t('scraperAdmin.progress.failed')
    : t('scraperAdmin.progress.cancelled');
  const items: [string, string, string][] = [
    [t('scraperAdmin.progress.pages'), `${progress.currentPage}/${progress.totalPages}`, 'progress-pages'],
    [t('scraperAdmin.progress.products'), format.number(progress.totalProducts), 'progress-products'],
    [t('scraperAdmin.progress.elapsed'), clock(elapsed), 'progress-elapsed'],
    [t('scraperAdmin.progress.remaining'), left === null ? '—' : t('scraperAdmin.progress.about', { time: clock(left) }), 'progress-remaining'],
  ];

  return (
    <Dialog
      open
      onClose={onClose}
      // Opened as the Scrape dialog closes, which hands focus back to its Scrape Now: that is no reason to close.
      closeOnInteractOutside={false}
      title={t('scraperAdmin.progress.title')}
      footer={
        <>
          {active && (
            <Button variant="outline" colorPalette="red" loading={cancel.isPending} onClick={() => !cancel.isPending && cancel.mutate(jobId)}>
              {t('scraperAdmin.progress.cancelJob')}
            </Button>
          )}
          <Button variant="outline" onClick={onClose}>{t('common.close')}</Button>
        </>
      }
    >
      <Stack gap="4" data-testid="scrape-progress" data-job={jobId} data-status={progress.status} data-stream={stream}>
        <Flex gap="2" align="center" justify="space-between" wrap="wrap">
          <Text fontWeight="semibold">{name ? t('scraperAdmin.progress.jobOf', { id: jobId, name }) : t('scraperAdmin.progress.job', { id: jobId })}</Text>
          <JobStatusBadge status={progress.status} />
        </Flex>
        <Text data-testid="progress-status-text" aria-live="polite">{statusText}</Text>
        <Progress.Root value={percent} max={100} colorPalette={progress.status === 'failed' ? 'red' : progress.status === 'completed' ? 'green' : 'blue'} data-testid="progress-bar">
          <HStack justify="space-between" mb="1">
            <Progress.Label>{t('scraperAdmin.progress.percentLabel')}</Progress.Label>
            <Text fontSize="sm" fontWeight="medium" data-testid="progress-percent">{`${percent}%`}</Text>
          </HStack>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <DataList.Root orientation="horizontal" size="sm" gap="2">
          {items.map(([label, value, testId]) => (
            <DataList.Item key={testId}>
              <DataList.ItemLabel minW="36">{label}</DataList.ItemLabel>
              <DataList.ItemValue fontVariantNumeric="tabular-nums" data-testid={testId}>{value}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
        {progress.error && (
          <ErrorAlert title={progress.status === 'failed' ? t('scraperAdmin.progress.failed') : t('scraperAdmin.progress.pageFailed')} description={<Text wordBreak="break-word" data-testid="progress-error">{progress.error}</Text>} />
        )}
        {stream === 'lost' && active && (
          <Alert.Root status="warning" data-testid="connection-lost">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('scraperAdmin.progress.connectionLost')}</Alert.Title>
            </Alert.Content>
          </Alert.Root>
        )}
        {!active && progress.status === 'completed' && (
          <Box fontSize="sm" color="fg.muted">{t('scraperAdmin.progress.seeProducts')}</Box>
        )}
      </Stack>
    </Dialog>
  );
}
