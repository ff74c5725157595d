import { useQuery } from '@tanstack/react-query';
import { sheetKeys, sheetPolling, type CacheStatus, type PriceList, type PriceRows } from './api';

export const usePriceSummary = () =>
  useQuery<PriceList>({ queryKey: sheetKeys.prices, refetchInterval: sheetPolling.prices });

export const usePriceRows = () =>
  useQuery<PriceRows>({ queryKey: sheetKeys.priceRows, refetchInterval: sheetPolling.prices });

export const useCacheStatus = () =>
  useQuery<CacheStatus>({ queryKey: sheetKeys.cacheStatus, refetchInterval: sheetPolling.cacheStatus });
