import { listen } from '@bo/sim-kit';
import { buildWooCommerceSimulator } from './app';

const sim = buildWooCommerceSimulator();
const url = await listen(sim.app, Number(process.env.PORT ?? 0));
const key = sim.state.keys[0];
console.log(`WooCommerce simulator on ${url} (API ${url}/wp-json/wc/v3, key ${key.consumer_key} / ${key.consumer_secret}; control page ${url}/__sim/)`);
