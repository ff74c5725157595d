import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import type { StreamingKeysConfig } from './config';
import type { PrismaClient } from './generated/prisma/client';

/** The streaming-keys service's parts (built out in issue 9). */
export async function buildStreamingKeysApp(_context: ServiceContext<StreamingKeysConfig, PrismaClient>): Promise<ServiceParts<undefined>> {
  return {
    routes() {},
    configItems: () => [],
  };
}
