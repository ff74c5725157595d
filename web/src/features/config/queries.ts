import { useQuery } from '@tanstack/react-query';
import { configKeys, type ConfigStatusReply } from './api';

export const useConfigStatus = () => useQuery<ConfigStatusReply>({ queryKey: configKeys.status });
