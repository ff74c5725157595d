import { createSimulator, type Simulator } from '@bo/sim-kit';
import { registerWooApi } from './api';
import { registerControlRoutes } from './control';
import { wooSections } from './page';
import { applySeed, defaultSeed, type SeedData } from './seed';
import { WooState, type WooOptions } from './state';

export { createOrder } from './orders';
export { applySeed, defaultSeed, type SeedData } from './seed';
export * from './state';

export interface WooSimulatorOptions extends Partial<WooOptions> {
  /** What the store holds at start and after /__sim/reset; the default shop when absent, empty with `false`. */
  seed?: SeedData | false;
  logger?: boolean;
}

/** WooCommerce REST API v3 (products, variations, batch, orders) with consumer-key auth. */
export function buildWooCommerceSimulator(options: WooSimulatorOptions = {}): Simulator & { state: WooState } {
  const { logger, seed, ...behaviour } = options;
  const sim = createSimulator({ title: 'WooCommerce REST API v3', logger });
  const state = new WooState(behaviour);
  registerWooApi(sim.app, state);
  registerControlRoutes(sim.app, state);
  sim.addPageSections(() => wooSections(state));
  const reseed = () => {
    state.reset();
    if (seed !== false) applySeed(state, seed ?? defaultSeed());
  };
  sim.onReset(reseed);
  reseed();
  return { ...sim, state };
}
