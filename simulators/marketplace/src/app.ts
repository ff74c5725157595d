import { createSimulator, type Simulator } from '@bo/sim-kit';
import { marketplaceSections } from './page';
import { registerControlRoutes, registerSiteRoutes } from './routes';
import { MarketplaceState, type MarketplaceOptions } from './state';

export { DEFAULT_SCRAPE_CONFIG, LAYOUTS, type LayoutName } from './layout';
export { generateOffers, games, type Game, type Offer } from './catalogue';
export * from './state';

export interface MarketplaceSimulatorOptions extends Partial<MarketplaceOptions> {
  logger?: boolean;
}

/** A G2G-style game-item marketplace as real HTML pages, with switches for prices, removals, layout, speed and blocking. */
export function buildMarketplaceSimulator(options: MarketplaceSimulatorOptions = {}): Simulator & { state: MarketplaceState } {
  const { logger, ...catalogue } = options;
  const sim = createSimulator({ title: 'Game-item marketplace (G2G-style)', logger });
  const state = new MarketplaceState(catalogue);
  registerSiteRoutes(sim.app, state);
  registerControlRoutes(sim.app, state);
  sim.addPageSections(() => marketplaceSections(state));
  sim.onReset(() => state.reset());
  return { ...sim, state };
}
