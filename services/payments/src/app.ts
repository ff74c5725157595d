import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import type { PaymentsConfig } from './config';
import type { PrismaClient } from './generated/prisma/client';

/** The payments service's parts. */
export async function buildPaymentsApp(_context: ServiceContext<PaymentsConfig, PrismaClient>): Promise<ServiceParts<undefined>> {
  return {
    routes() {},
    configItems: () => [],
  };
}
