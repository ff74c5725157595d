import { useQuery } from '@tanstack/react-query';
import { manyChatKeys, type DeliveriesReply, type SettingsReply, type TemplatesReply } from './api';

export const useManyChatSettings = () => useQuery<SettingsReply>({ queryKey: manyChatKeys.settings });
export const useTemplates = () => useQuery<TemplatesReply>({ queryKey: manyChatKeys.templates });
/** Messages held outside the 24-hour window with no template for their kind, newest first. */
export const useHeldMessages = () => useQuery<DeliveriesReply>({ queryKey: manyChatKeys.held });
