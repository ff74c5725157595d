import { createSimulator, type Simulator } from '@bo/sim-kit';
import { registerOpenAiApi } from './api';
import { registerControlRoutes } from './control';
import { openAiSections } from './page';
import { OpenAiState, type OpenAiOptions } from './state';

export { embedText, toBase64 } from './embeddings';
export { presetFault } from './control';
export { personas, type PersonaName } from './personas';
export * from './state';

export interface OpenAiSimulatorOptions extends Partial<OpenAiOptions> {
  logger?: boolean;
}

/** An OpenAI-compatible API (models, chat completions with tools, embeddings) with scriptable answers. */
export function buildOpenAiSimulator(options: OpenAiSimulatorOptions = {}): Simulator & { state: OpenAiState } {
  const { logger, ...behaviour } = options;
  const sim = createSimulator({ title: 'OpenAI-compatible AI API', logger });
  const state = new OpenAiState(behaviour);
  registerOpenAiApi(sim.app, state);
  registerControlRoutes(sim.app, state, sim.faults);
  sim.addPageSections(() => openAiSections(state));
  sim.onReset(() => state.reset());
  return { ...sim, state };
}
