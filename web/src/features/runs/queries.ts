import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { runKeys, runPaths, runPolling, type RunFilters, type RunsReply, type RunView, type SchedulesReply } from './api';
import { followRunEvents, type StreamState } from './events';
import { isActive, keepNewerRows, laterRun, patchCached } from './model';

/**
 * The latest runs, newest first, asked for again every 2 s while one of them moves (api.ts says
 * why polling). Runs change behind the page's back, so unlike the rest of the dashboard the list is
 * asked for again each time the section opens; a changed filter keeps the rows on screen until the
 * new ones arrive; a poll never sends a row back behind what its event stream has shown.
 */
export const useRuns = (filters: RunFilters) =>
  useQuery<RunsReply>({
    queryKey: runKeys.list(filters),
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some(isActive) ? runPolling.activeList : false),
    structuralSharing: (held, fetched) => keepNewerRows(held as RunsReply | undefined, fetched as RunsReply),
  });

export const useSchedules = () => useQuery<SchedulesReply>({ queryKey: runKeys.schedules, refetchOnMount: 'always' });

/**
 * One run with its steps and result, asked for again every 2 s while it moves: its progress events
 * carry no steps, so the steps it completes come with these answers (the stream's newer progress is
 * kept over an answer a moment older).
 */
export const useRun = (id: string | null) =>
  useQuery<RunView>({
    queryKey: runKeys.run(id ?? ''),
    enabled: id !== null,
    refetchOnMount: 'always',
    refetchInterval: (query) => (query.state.data && isActive(query.state.data) ? runPolling.activeList : false),
    structuralSharing: (held, fetched) => (held ? laterRun(held as RunView, fetched as RunView) : (fetched as RunView)),
  });

/**
 * While `id` names a run that still moves, follows its event stream: each `progress` event updates
 * the run wherever the page holds it (its own answer and the list rows); `end` closes the stream and
 * asks for the run and the lists again (its steps and result are final then). The stream closes
 * when the run is left (another id, or none) and when the component unmounts.
 */
export function useRunEvents(id: string | null, active: boolean): StreamState | null {
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState | null>(null);
  useEffect(() => {
    if (!id || !active) return;
    const close = followRunEvents(runPaths.events(id), {
      onRun: (run) => queryClient.setQueriesData<unknown>({ queryKey: runKeys.all }, (cached: unknown) => patchCached(cached, run)),
      onEnd: () => void queryClient.invalidateQueries({ queryKey: runKeys.all }),
      onState: setState,
    });
    return () => {
      close();
      setState(null);
    };
  }, [id, active, queryClient]);
  return id && active ? state : null;
}

/** The time now, moving every second while `ticking` (a running run's duration), else still. */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), runPolling.clock);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
