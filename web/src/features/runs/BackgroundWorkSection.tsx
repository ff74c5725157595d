import { Button, Card, EmptyState, Flex, Heading, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterBar, FilterField, FilterSelect } from '../../components/Filters';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify, notifyError } from '../../lib/toast';
import { useSettled } from '../../lib/use-settled';
import { sectionPath } from '../../shell/sections';
import { runKeys, type RunFilters, type RunStatus, type RunView } from './api';
import { useCancelRun, useRetryRun } from './mutations';
import { isActive, newestFirst, runServiceList, runStatusList } from './model';
import { useNow, useRuns, useSchedules } from './queries';
import { RunDetailDialog } from './RunDetailDialog';
import { RunsTable } from './RunsTable';
import { SchedulesTable } from './SchedulesTable';

/** `&run=<id>` opens a run's details (a schedule's last run links there, and so does the WooCommerce sync panel). */
const runHref = (id: string) => sectionPath('background-work', { run: id });

/** A kind typed in the filter is asked for once the typing pauses. */
const KIND_TYPING_PAUSE_MS = 400;

/**
 * Background work (issue 20): the latest runs of every service with their progress, followed while
 * they move, with Cancel and Retry; a run's details (steps, result) in a dialog; and the schedules.
 */
export default function BackgroundWorkSection() {
  const { t } = useTexts();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Omit<RunFilters, 'kind'>>({});
  const [kindTyped, setKindTyped] = useState('');
  const [kind, settleKind] = useSettled(kindTyped, KIND_TYPING_PAUSE_MS);
  const filters: RunFilters = { ...chosen, kind };
  const [openId, openRun, closeRun] = useOpenRun();

  const runs = useRuns(filters);
  const rows = newestFirst(runs.data?.data ?? []);
  const now = useNow(rows.some(isActive));
  const filtered = Boolean(filters.service || filters.status || filters.kind || !filters.showCompletedScheduled);

  const cancel = useCancelRun({
    onSuccess: ({ run }) => notify({ title: t('runs.cancelDone'), description: t('runs.cancelDoneBody', { kind: run.kind }), type: 'success' }),
    onError: (error) => notifyError(t('runs.cancelFailed'), error, t('runs.cancelFailedDefault')),
  });
  const retry = useRetryRun({
    onSuccess: ({ run }) => notify({ title: t('runs.retryDone'), description: t('runs.retryDoneBody', { kind: run.kind }), type: 'success' }),
    onError: (error) => notifyError(t('runs.retryFailed'), error, t('runs.retryFailedDefault')),
  });
  const busyId = cancel.isPending ? (cancel.variables ?? null) : retry.isPending ? (retry.variables ?? null) : null;
  const actions = {
    onOpen: (run: RunView) => openRun(run.id),
    onCancel: (run: RunView) => cancel.mutate(run.id),
    onRetry: (run: RunView) => retry.mutate(run.id),
    busyId,
  };

  // Spins for the refresh asked for, not for each poll while a run moves.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void Promise.all([queryClient.invalidateQueries({ queryKey: runKeys.all }), queryClient.invalidateQueries({ queryKey: runKeys.schedules })]).finally(() =>
      setRefreshing(false),
    );
  };

  return (
    <>
      <PageHeader
        title={t('runs.title')}
        subtitle={t('runs.subtitle')}
        actions={<Button variant="outline" onClick={refresh} loading={refreshing}>{t('runs.refresh')}</Button>}
      />
      <Stack gap="6">
        <Card.Root size="sm" data-testid="runs-card">
          <Card.Header>
            <Stack gap="3">
              <Heading as="h2" size="md">{t('runs.runsTitle')}</Heading>
              <Filters
                filters={filters}
                kindTyped={kindTyped}
                onChange={(change) => setChosen((current) => ({ ...current, ...change }))}
                onKind={setKindTyped}
                onClear={() => {
                  setKindTyped('');
                  settleKind('');
                  setChosen({});
                }}
              />
            </Stack>
          </Card.Header>
          <Card.Body>
            <Stack gap="4">
              {runs.isPending && (
                <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('runs.loading')}</Text></Flex>
              )}
              {runs.isError && <ErrorAlert testId="runs-error" title={t('runs.error')} description={errorText(runs.error, '') || undefined} />}
              {runs.data && runs.data.unreachable.length > 0 && (
                <ErrorAlert
                  testId="runs-unreachable"
                  title={t('runs.unreachable')}
                  description={t('runs.unreachableBody', { services: runs.data.unreachable.join(', ') })}
                />
              )}
              {runs.data && rows.length === 0 && <NoRuns filtered={filtered} />}
              {rows.length > 0 && <RunsTable runs={rows} now={now} actions={actions} />}
            </Stack>
          </Card.Body>
        </Card.Root>

        <SchedulesCard />
      </Stack>

      {openId && (
        <RunDetailDialog
          key={openId}
          id={openId}
          listed={rows.find((run) => run.id === openId)}
          onClose={closeRun}
          onCancel={actions.onCancel}
          onRetry={actions.onRetry}
          busy={busyId === openId}
        />
      )}
    </>
  );
}

/** The run whose details are open lives in `?run=`, so a schedule's link (or a shared one) opens it. */
function useOpenRun(): [string | null, (id: string) => void, () => void] {
  const [params, setParams] = useSearchParams();
  const set = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('run', id);
        else next.delete('run');
        return next;
      },
      { replace: true },
    );
  return [params.get('run') || null, (id) => set(id), () => set(null)];
}

function Filters({
  filters,
  kindTyped,
  onChange,
  onKind,
  onClear,
}: {
  filters: RunFilters;
  kindTyped: string;
  onChange: (change: Omit<RunFilters, 'kind'>) => void;
  onKind: (kind: string) => void;
  onClear: () => void;
}) {
  const { t } = useTexts();
  return (
    <FilterBar testId="runs-filters">
      <FilterSelect label={t('runs.filter.service')} width="48" name="service" value={filters.service ?? ''} onChange={(value) => onChange({ service: value || undefined })}>
        <option value="">{t('runs.filter.allServices')}</option>
        {runServiceList.map((service) => <option key={service} value={service}>{service}</option>)}
      </FilterSelect>
      <FilterSelect label={t('runs.filter.status')} width="44" name="status" value={filters.status ?? ''} onChange={(value) => onChange({ status: (value || undefined) as RunStatus | undefined })}>
        <option value="">{t('runs.filter.allStatuses')}</option>
        {runStatusList.map((status) => <option key={status} value={status}>{t(`runs.status.${status}`)}</option>)}
      </FilterSelect>
      <FilterSelect
        label={t('runs.filter.scheduled')}
        width="52"
        name="scheduled"
        value={filters.showCompletedScheduled ? 'all' : 'hide'}
        onChange={(value) => onChange({ showCompletedScheduled: value === 'all' || undefined })}
      >
        <option value="hide">{t('runs.filter.scheduledHide')}</option>
        <option value="all">{t('runs.filter.scheduledAll')}</option>
      </FilterSelect>
      <FilterField label={t('runs.filter.kind')} width="56">
        <Input size="sm" name="kind" value={kindTyped} maxLength={100} placeholder={t('runs.filter.kindPlaceholder')} onChange={(event) => onKind(event.target.value)} />
      </FilterField>
      {(filters.service || filters.status || filters.showCompletedScheduled || kindTyped) && (
        <Button size="sm" variant="ghost" onClick={onClear}>{t('runs.filter.clear')}</Button>
      )}
    </FilterBar>
  );
}

function NoRuns({ filtered }: { filtered: boolean }) {
  const { t } = useTexts();
  return (
    <EmptyState.Root size="sm" data-testid="runs-empty">
      <EmptyState.Content>
        <EmptyState.Title>{filtered ? t('runs.emptyFiltered') : t('runs.empty')}</EmptyState.Title>
        {!filtered && <EmptyState.Description>{t('runs.emptyBody')}</EmptyState.Description>}
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

function SchedulesCard() {
  const { t } = useTexts();
  const schedules = useSchedules();
  const list = schedules.data?.data ?? [];
  return (
    <Card.Root size="sm" data-testid="schedules-card">
      <Card.Header>
        <Heading as="h2" size="md">{t('runs.schedules.title')}</Heading>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          {schedules.isPending && (
            <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('runs.schedules.loading')}</Text></Flex>
          )}
          {schedules.isError && <ErrorAlert testId="schedules-error" title={t('runs.schedules.error')} description={errorText(schedules.error, '') || undefined} />}
          {schedules.data && schedules.data.unreachable.length > 0 && (
            <ErrorAlert testId="schedules-unreachable" title={t('runs.unreachable')} description={t('runs.schedules.unreachable', { services: schedules.data.unreachable.join(', ') })} />
          )}
          {schedules.data && list.length === 0 && <Text color="fg.muted" data-testid="schedules-empty">{t('runs.schedules.empty')}</Text>}
          {list.length > 0 && <SchedulesTable schedules={list} runHref={runHref} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
