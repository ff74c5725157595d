import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import type { NotificationsConfig } from './config';
import type { PrismaClient } from './generated/prisma/client';

/** The notifications service's parts (built out in issue 9). */
export async function buildNotificationsApp(_context: ServiceContext<NotificationsConfig, PrismaClient>): Promise<ServiceParts<undefined>> {
  return {
    routes() {},
    configItems: () => [],
  };
}
