import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiDownload, saveFile, type DownloadedFile } from '../../lib/download';
import type { CallerOptions } from '../../lib/mutation';
import { runKeys } from '../runs/api';
import { migrationPaths, type ImportCheck, type ImportStarted } from './api';
import type { MigrationFile } from './migration';

/** The name the gateway gives the file, when its answer names none: the day's date, as it would. */
const fallbackFileName = () => `database-export-${new Date().toISOString().slice(0, 10)}.json`;

/** Fetches the export with the session, then saves it under the server's file name. */
export const useExportDatabase = (options?: CallerOptions<DownloadedFile, void>) =>
  useMutation<DownloadedFile, Error, void>({
    ...options,
    mutationFn: async () => {
      const file = await apiDownload(migrationPaths.export);
      saveFile(file.blob, file.fileName ?? fallbackFileName());
      return file;
    },
  });

/** A dry run: what the file would add, update and refuse per table; it changes nothing. */
export const useCheckImport = (options?: CallerOptions<ImportCheck, MigrationFile>) =>
  useMutation<ImportCheck, Error, MigrationFile>({
    ...options,
    mutationFn: (file) => apiRequest<ImportCheck>('POST', migrationPaths.import(true), file),
  });

/**
 * The import: the gateway checks the file again and answers the run that applies it, which is
 * followed with useRun; the answer is that run's first state, so its progress shows at once.
 */
export function useStartImport(options?: CallerOptions<ImportStarted, MigrationFile>) {
  const queryClient = useQueryClient();
  return useMutation<ImportStarted, Error, MigrationFile>({
    ...options,
    mutationFn: (file) => apiRequest<ImportStarted>('POST', migrationPaths.import(false), file),
    onSuccess: async (...args) => {
      queryClient.setQueryData(runKeys.run(args[0].run.id), args[0].run);
      await options?.onSuccess?.(...args);
    },
  });
}

/** After an import every query on screen is asked for again: prices, keys, settings may all have changed. */
export function useRefreshAll(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries();
}
