import { createSimulator, type Simulator } from '@bo/sim-kit';
import { registerPublicApi } from './api';
import { registerControlRoutes } from './control';
import { manyChatSections } from './page';
import { PerSecondLimiter } from './rate-limit';
import type { SeedData } from './seed';
import { ManyChatState, type ManyChatOptions } from './state';

export { driveWebhook, FULL_SUBSCRIBER_DATA, type DriverSend, type WebhookExchange } from './driver';
export { dynamicBlockViolations } from './dynamic-block';
export { seedData, type SeedData } from './seed';
export * from './state';

export interface ManyChatSimulatorOptions extends Partial<ManyChatOptions> {
  seed?: SeedData;
  logger?: boolean;
}

/** The ManyChat public API (/fb/...) plus the chat-platform driver, with in-memory seedable state. */
export function buildManyChatSimulator(options: ManyChatSimulatorOptions = {}): Simulator & { state: ManyChatState } {
  const { seed, logger, ...behaviour } = options;
  const sim = createSimulator({ title: 'ManyChat', logger });
  const state = new ManyChatState(behaviour, seed);
  const limiter = new PerSecondLimiter();
  registerPublicApi(sim.app, state, limiter);
  registerControlRoutes(sim.app, state);
  sim.addPageSections(() => manyChatSections(state));
  sim.onReset(() => {
    state.reset();
    limiter.clear();
  });
  return { ...sim, state };
}
