import { Badge, Box, Button, Code, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LabelledValues } from '../../components/LabelledValues';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ServiceName } from '../../components/ServiceName';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import type { RunView } from './api';
import type { StreamState } from './events';
import { cancelAction, canRetry, isActive, newerOf } from './model';
import { useNow, useRun, useRunEvents } from './queries';
import { Duration, RunProgress, StatusBadge, useStartedBy } from './RunBits';

const streamPalette: Record<StreamState, string> = { connecting: 'gray', live: 'green', reconnecting: 'yellow', ended: 'gray', failed: 'orange' };

/**
 * One run, opened from its row or from a schedule: its progress, times, last error, the steps it has
 * completed and its result. While it moves, its event stream updates it here and in the table; the
 * stream closes when it ends, when the dialog closes and when the page is left.
 */
export function RunDetailDialog({
  id,
  listed,
  onClose,
  onCancel,
  onRetry,
  busy,
}: {
  id: string;
  /** The run as the list holds it: shown until its own answer arrives, and when it is the later of the two. */
  listed: RunView | undefined;
  onClose: () => void;
  onCancel: (run: RunView) => void;
  onRetry: (run: RunView) => void;
  busy: boolean;
}) {
  const { t } = useTexts();
  const detail = useRun(id);
  // The list is polled while runs move, this run's own answer is not: whichever is later is shown.
  const run = newerOf(detail.data, listed);
  const stream = useRunEvents(id, run ? isActive(run) : false);
  const now = useNow(run ? isActive(run) : false);
  const cancel = run ? cancelAction(run) : 'hidden';

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={run ? t('runs.detail.title', { kind: run.kind, service: run.service }) : t('runs.detail.loading')}
      footer={
        <>
          {run && cancel !== 'hidden' && (
            <Button variant="outline" colorPalette="red" disabled={cancel === 'disabled'} loading={busy} onClick={() => onCancel(run)}>
              {t('runs.action.cancel')}
            </Button>
          )}
          {run && canRetry(run) && (
            <Button variant="outline" colorPalette="blue" loading={busy} onClick={() => onRetry(run)}>
              {t('runs.action.retry')}
            </Button>
          )}
          <Button variant="outline" onClick={onClose}>{t('common.close')}</Button>
        </>
      }
    >
      <Box data-testid="run-detail" data-run-id={id} data-status={run?.status ?? ''}>
        {!run && detail.isPending && (
          <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('runs.detail.loading')}</Text></Flex>
        )}
        {detail.isError && <ErrorAlert title={t('runs.detail.error')} description={errorText(detail.error, '') || undefined} mb="4" />}
        {run && <RunBody run={run} now={now} stream={stream} />}
      </Box>
    </Dialog>
  );
}

function RunBody({ run, now, stream }: { run: RunView; now: number; stream: StreamState | null }) {
  const { t, format } = useTexts();
  const startedBy = useStartedBy();
  const dateOrDash = (value: string | null) => (value ? format.dateTime(value) : '—');
  const items: [string, ReactNode][] = [
    [t('runs.detail.status'), (
      <Flex gap="2" align="center" wrap="wrap">
        <StatusBadge run={run} />
        {stream && <Badge variant="outline" colorPalette={streamPalette[stream]} data-testid="run-stream" data-state={stream}>{t(`runs.live.${stream}`)}</Badge>}
      </Flex>
    )],
    [t('runs.col.service'), <ServiceName service={run.service} />],
    [t('runs.detail.id'), (
      <Flex gap="2" align="center" minW="0">
        <Code fontSize="xs" truncate>{run.id}</Code>
        <CopyButton value={run.id} what={t('runs.detail.runId')} />
      </Flex>
    )],
    [t('runs.detail.startedBy'), startedBy(run.startedBy)],
    ...(run.schedule ? [[t('runs.detail.schedule'), run.schedule] as [string, string]] : []),
    [t('runs.detail.attempts'), format.number(run.attempts)],
    [t('runs.detail.created'), format.dateTime(run.createdAt)],
    [t('runs.detail.started'), dateOrDash(run.startedAt)],
    [t('runs.detail.completed'), dateOrDash(run.completedAt)],
    [t('runs.detail.duration'), <Duration run={run} now={now} />],
  ];
  return (
    <Stack gap="5">
      <LabelledValues items={items} />

      <Box>
        <Heading as="h3" size="sm" mb="2">{t('runs.detail.progress')}</Heading>
        <RunProgress run={run} wide />
      </Box>

      {run.lastError && (
        <ErrorAlert title={t('runs.detail.lastError')} description={<Text whiteSpace="pre-wrap" wordBreak="break-word" data-testid="run-detail-error">{run.lastError}</Text>} />
      )}

      <Box>
        <Heading as="h3" size="sm" mb="2">{t('runs.detail.steps')}</Heading>
        {run.steps.length === 0 ? (
          <Text color="fg.muted" fontSize="sm">{t('runs.detail.noSteps')}</Text>
        ) : (
          <Stack as="ol" gap="1" ps="5" data-testid="run-steps">
            {run.steps.map((step, index) => (
              <Box as="li" key={`${index}-${step.name}`} fontSize="sm" listStyleType="decimal">
                <Flex justify="space-between" gap="3" wrap="wrap">
                  <Text as="span" fontFamily="mono">{step.name}</Text>
                  <Text as="span" color="fg.muted" whiteSpace="nowrap">{format.dateTime(step.completedAt)}</Text>
                </Flex>
              </Box>
            ))}
          </Stack>
        )}
      </Box>

      <Box>
        <Heading as="h3" size="sm" mb="2">{t('runs.detail.result')}</Heading>
        {run.result === null ? (
          <Text color="fg.muted" fontSize="sm">{t('runs.detail.noResult')}</Text>
        ) : (
          <Code as="pre" display="block" whiteSpace="pre-wrap" wordBreak="break-word" p="3" maxH="64" overflowY="auto" fontSize="xs" data-testid="run-result">
            {JSON.stringify(run.result, null, 2)}
          </Code>
        )}
      </Box>
    </Stack>
  );
}
