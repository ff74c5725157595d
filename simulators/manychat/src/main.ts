import { listen } from '@bo/sim-kit';
import { buildManyChatSimulator } from './app';

const sim = buildManyChatSimulator({ webhookUrl: process.env.MANYCHAT_WEBHOOK_URL ?? null });
const url = await listen(sim.app, Number(process.env.PORT ?? 0));
console.log(`ManyChat simulator on ${url} (API key ${sim.state.apiKey}; control page ${url}/__sim/)`);
