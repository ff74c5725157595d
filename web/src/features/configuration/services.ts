import type { MessageKey } from '../../i18n';
import type { ConfigStatusItem } from './api';

type Reporter = NonNullable<ConfigStatusItem['service']>;

const labels: Record<Reporter, MessageKey> = {
  gateway: 'configuration.service.gateway',
  pricing: 'configuration.service.pricing',
  'shop-sync': 'configuration.service.shop-sync',
  payments: 'configuration.service.payments',
  'streaming-keys': 'configuration.service.streaming-keys',
  notifications: 'configuration.service.notifications',
  'ai-chat': 'configuration.service.ai-chat',
  scraper: 'configuration.service.scraper',
};

/** The name the page gives the process that reported an item; 'Other' for an item that names none. */
export const serviceLabel = (service: string | undefined): MessageKey => labels[service as Reporter] ?? 'configuration.service.other';
