import { domainServiceNames } from '../services';
import type { AnyRouteContract } from './contract';
import { aiAdminRoutes } from './ai-admin-routes';
import { aiChatRoutes } from './ai-chat-routes';
import { chatRoutes } from './chat-routes';
import { customerGatewayRoutes, customerStreamingKeysRoutes } from './customer-routes';
import { gatewayRoutes } from './gateway-routes';
import { knowledgeRoutes } from './knowledge-routes';
import { platformRoutesOf } from './platform-routes';
import { notificationsRoutes } from './notifications-routes';
import { paymentsRoutes } from './payments-routes';
import { pricingRoutes } from './pricing-routes';
import { scraperRoutes } from './scraper-routes';
import { scraperPublishRoutes, shopListingRoutes } from './scraped-listing-routes';
import { shopSyncRoutes } from './shop-sync-routes';
import { streamingKeysRoutes } from './streaming-keys-routes';

/**
 * Every HTTP route of the system, as data. The gateway's routing table, its OpenAPI document, the
 * authorization tests and the web app's types all come from this list; a handler exists for each
 * (checked by the contract tests), and no route exists without one of these.
 */
export const allRoutes: readonly AnyRouteContract[] = [
  ...gatewayRoutes,
  ...customerGatewayRoutes,
  ...pricingRoutes,
  ...shopSyncRoutes,
  ...shopListingRoutes,
  ...paymentsRoutes,
  ...streamingKeysRoutes,
  ...customerStreamingKeysRoutes,
  ...notificationsRoutes,
  ...aiChatRoutes,
  ...chatRoutes,
  ...knowledgeRoutes,
  ...aiAdminRoutes,
  ...scraperRoutes,
  ...scraperPublishRoutes,
  ...domainServiceNames.flatMap((name) => Object.values(platformRoutesOf(name))),
] as AnyRouteContract[];

/** The routes one process answers. */
export const routesOwnedBy = (owner: string): AnyRouteContract[] => allRoutes.filter((route) => route.owner === owner);
