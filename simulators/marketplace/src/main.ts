import { listen } from '@bo/sim-kit';
import { buildMarketplaceSimulator } from './app';

const sim = buildMarketplaceSimulator({ seed: process.env.MARKETPLACE_SEED ? Number(process.env.MARKETPLACE_SEED) : undefined });
const url = await listen(sim.app, Number(process.env.PORT ?? 0));
console.log(`Marketplace simulator on ${url} (games ${url}/ ; control page ${url}/__sim/)`);
