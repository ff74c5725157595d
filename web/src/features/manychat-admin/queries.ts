import { useQuery } from '@tanstack/react-query';
import { manyChatKeys, type SettingsReply, type TemplatesReply } from './api';

export const useManyChatSettings = () => useQuery<SettingsReply>({ queryKey: manyChatKeys.settings });
export const useTemplates = () => useQuery<TemplatesReply>({ queryKey: manyChatKeys.templates });
