import { listen } from '@bo/sim-kit';
import { buildOpenAiSimulator } from './app';
import type { PersonaName } from './personas';

const sim = buildOpenAiSimulator({ persona: (process.env.AI_PERSONA as PersonaName | undefined) ?? 'openai' });
const url = await listen(sim.app, Number(process.env.PORT ?? 0));
console.log(`OpenAI-compatible simulator on ${url} (baseURL ${url}${sim.state.persona.prefix}, key ${sim.state.options.apiKeys[0]}; control page ${url}/__sim/)`);
