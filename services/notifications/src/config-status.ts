import { isSimulatorUrl } from '@bo/platform';
import type { ConfigItem } from '@bo/proto';
import type { NotificationsConfig } from './config';

/** What the gateway's config-status page shows for this service (the token never, only whether it is set). */
export function notificationsConfigItems(config: NotificationsConfig): ConfigItem[] {
  return [
    { name: 'ManyChat API', category: 'Chat notifications', configured: Boolean(config.MANYCHAT_API_TOKEN), simulated: isSimulatorUrl(config.MANYCHAT_API_URL) },
  ];
}
