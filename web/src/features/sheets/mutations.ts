import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import { sheetKeys, sheetPaths, type SheetRowUpdate, type SheetUpdateReply } from './api';

export const useClearCache = (options?: CallerOptions<unknown, void>) =>
  useInvalidatingMutation(() => apiRequest('POST', sheetPaths.clearCache), [sheetKeys.cacheStatus, sheetKeys.prices], options);

export const useUpdateSheetRow = (options?: CallerOptions<SheetUpdateReply, SheetRowUpdate>) =>
  useInvalidatingMutation(
    (row: SheetRowUpdate) => apiRequest<SheetUpdateReply>('POST', sheetPaths.update, row),
    [sheetKeys.prices, sheetKeys.cacheStatus],
    options,
  );
