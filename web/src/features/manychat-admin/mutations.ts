import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import { manyChatKeys, manyChatPaths, type ExpiryCheckReply, type SettingUpdate, type SettingUpdateReply } from './api';

/** A setting changes the warning and what the templates' previews say (the renewal link's address). */
export const useSaveSetting = (options?: CallerOptions<SettingUpdateReply, SettingUpdate>) =>
  useInvalidatingMutation((update: SettingUpdate) => apiRequest<SettingUpdateReply>('POST', manyChatPaths.settings, update), [manyChatKeys.settings, manyChatKeys.templates], options);

/**
 * A check may hold reminders (the held list). The keys' reminder statuses reach streaming-keys by
 * an event, later, and its expiry report is read afresh each time it opens.
 */
export const useExpiryCheck = (options?: CallerOptions<ExpiryCheckReply, void>) =>
  useInvalidatingMutation(() => apiRequest<ExpiryCheckReply>('POST', manyChatPaths.expiryCheck, {}), [manyChatKeys.held], options);
