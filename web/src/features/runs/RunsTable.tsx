import { Button, HStack, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import type { MouseEvent } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ServiceName } from '../../components/ServiceName';
import { Tooltip } from '../../components/Tooltip';
import { useTexts } from '../../i18n';
import type { RunView } from './api';
import { cancelAction, canRetry, truncate } from './model';
import { Duration, RunProgress, StatusBadge, useStartedBy } from './RunBits';

/** A button's click is its own, not the row's (which opens the run). */
const only = (action: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  action();
};

/** How much of a last error a row shows; the whole text is in its tooltip and in the run's details. */
const ERROR_SHOWN = 40;

export interface RunActions {
  onOpen(run: RunView): void;
  onCancel(run: RunView): void;
  onRetry(run: RunView): void;
  /** The run an action is on its way for (its button spins). */
  busyId: string | null;
}

/** The latest runs: a row per run; a click on it (or on its kind, a button) opens the run. */
export function RunsTable({ runs, now, actions }: { runs: readonly RunView[]; now: number; actions: RunActions }) {
  const { t, format } = useTexts();
  const startedBy = useStartedBy();
  const columns: Column<RunView>[] = [
    { key: 'service', header: t('runs.col.service'), cell: (run) => <ServiceName service={run.service} /> },
    {
      key: 'kind',
      header: t('runs.col.kind'),
      // The kind opens the run's details (so does a click anywhere on the row).
      cell: (run) => (
        <Link asChild fontWeight="medium" whiteSpace="nowrap" colorPalette="blue" variant="underline">
          <button
            type="button"
            onClick={only(() => actions.onOpen(run))}
            aria-label={t('runs.action.detailsOf', { kind: run.kind, started: format.dateTime(run.startedAt ?? run.createdAt) })}
          >
            {run.kind}
          </button>
        </Link>
      ),
    },
    { key: 'status', header: t('runs.col.status'), cell: (run) => <StatusBadge run={run} /> },
    { key: 'progress', header: t('runs.col.progress'), cell: (run) => <RunProgress run={run} /> },
    {
      key: 'started',
      header: t('runs.col.started'),
      cell: (run) => (
        <Stack gap="0">
          {/* May wrap: a date in Mongolian is twice as long as in English. */}
          {run.startedAt ? <Text minW="32" whiteSpace="normal">{format.dateTime(run.startedAt)}</Text> : <Text color="fg.muted">{t('runs.notStarted')}</Text>}
          <Text fontSize="xs" color="fg.muted" data-testid="run-started-by">{startedBy(run.startedBy)}</Text>
        </Stack>
      ),
    },
    { key: 'duration', header: t('runs.col.duration'), cell: (run) => <Duration run={run} now={now} /> },
    { key: 'lastError', header: t('runs.col.lastError'), cell: (run) => <LastError text={run.lastError} /> },
    {
      key: 'actions',
      header: <VisuallyHidden>{t('runs.col.actions')}</VisuallyHidden>,
      cell: (run) => <Actions run={run} actions={actions} />,
      // The hidden header is placed in its own cell: against the card it would widen the page on a phone.
      headerProps: { position: 'relative' },
    },
  ];
  return (
    <DataTable
      testId="runs-table"
      caption={t('runs.caption')}
      columns={columns}
      rows={runs}
      rowKey={(run) => run.id}
      rowProps={(run) => ({
        'data-run-id': run.id,
        'data-status': run.status,
        cursor: 'pointer',
        onClick: () => actions.onOpen(run),
      })}
    />
  );
}

function LastError({ text }: { text: string | null }) {
  const { t } = useTexts();
  if (!text) return <Text color="fg.muted" fontSize="sm">{t('runs.noError')}</Text>;
  const shown = truncate(text, ERROR_SHOWN);
  const cell = (
    <Text fontSize="sm" color="red.fg" maxW="36" truncate tabIndex={shown === text ? undefined : 0} data-testid="run-last-error">
      {shown}
    </Text>
  );
  return shown === text ? cell : <Tooltip content={text}>{cell}</Tooltip>;
}

function Actions({ run, actions }: { run: RunView; actions: RunActions }) {
  const { t } = useTexts();
  const cancel = cancelAction(run);
  const busy = actions.busyId === run.id;
  return (
    <HStack gap="1" justify="flex-end">
      {cancel !== 'hidden' && (
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          disabled={cancel === 'disabled'}
          loading={busy}
          title={cancel === 'disabled' ? t('runs.action.cancelRequested') : undefined}
          onClick={only(() => actions.onCancel(run))}
        >
          {t('runs.action.cancel')}
        </Button>
      )}
      {canRetry(run) && (
        <Button size="xs" variant="outline" colorPalette="blue" loading={busy} onClick={only(() => actions.onRetry(run))}>
          {t('runs.action.retry')}
        </Button>
      )}
    </HStack>
  );
}
