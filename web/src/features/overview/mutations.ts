import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiDownload, saveFile, type DownloadedFile } from '../../lib/download';
import type { CallerOptions } from '../../lib/mutation';
import { runKeys } from '../runs/api';
import { migrationPaths, type ImportCheck, type ImportStarted } from './api';
import type { MigrationFile } from './migration';

/** The name the gateway gives the file, when its answer names none: the day's date, as it would. */
const fallbackFileName = () => `database-export-${new Date().toISOString().slice(0, 10)}.json`;

/** How the export is made: sealed with a passphrase (the default), or the plain file by a person's explicit choice. */
export type ExportChoice = { passphrase: string } | { plain: true };

/** Fetches the export with the session (encrypted: a POST with its passphrase), then saves it under the server's file name. */
export const useExportDatabase = (options?: CallerOptions<DownloadedFile, ExportChoice>) =>
  useMutation<DownloadedFile, Error, ExportChoice>({
    ...options,
    mutationFn: async (choice) => {
      const file = 'plain' in choice ? await apiDownload(migrationPaths.export) : await apiDownload(migrationPaths.export, { passphrase: choice.passphrase });
      saveFile(file.blob, file.fileName ?? fallbackFileName());
      return file;
    },
  });

/** An encrypted file opened with its passphrase by the gateway: the plain file, which is then checked and imported as any. */
export const useOpenEncryptedFile = (options?: CallerOptions<MigrationFile, { file: MigrationFile; passphrase: string }>) =>
  useMutation<MigrationFile, Error, { file: MigrationFile; passphrase: string }>({
    ...options,
    mutationFn: ({ file, passphrase }) => apiRequest<MigrationFile>('POST', migrationPaths.open, { ...file, passphrase }),
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
