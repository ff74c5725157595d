import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiDownload, saveFile, type DownloadedFile } from '../../lib/download';
import type { CallerOptions } from '../../lib/mutation';
import { migrationPaths, type ImportReply } from './api';
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

/**
 * A dry run (changes nothing) or the import itself. After an import every query on screen is asked
 * for again: prices, keys, settings may all have changed.
 */
export function useImportDatabase(dryRun: boolean, options?: CallerOptions<ImportReply, MigrationFile>) {
  const queryClient = useQueryClient();
  return useMutation<ImportReply, Error, MigrationFile>({
    ...options,
    mutationFn: (file) => apiRequest<ImportReply>('POST', migrationPaths.import(dryRun), file),
    onSuccess: async (...args) => {
      if (!dryRun) void queryClient.invalidateQueries();
      await options?.onSuccess?.(...args);
    },
  });
}
