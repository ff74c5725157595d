import { listen } from '@bo/sim-kit';
import { buildQpaySimulator, qpayBases } from './app';

const sim = buildQpaySimulator();
await sim.ready;
const url = await listen(sim.app, Number(process.env.PORT ?? 0));
const client = sim.state.options.clients[0];
console.log(`QPay v2 simulator on ${url} (production ${url}${qpayBases.production}, sandbox ${url}${qpayBases.sandbox}; client ${client.clientId}/${client.clientSecret}, invoice code ${sim.state.options.invoiceCodes[0]}; control page ${url}/__sim/)`);
