import { createSimulator, type Simulator } from '@bo/sim-kit';
import { registerQpayApi } from './api';
import { registerControlRoutes } from './control';
import { qpaySections } from './page';
import { seedDefaultInvoices } from './seed';
import { QpayState, type QpayOptions } from './state';

export { qpayBases } from './api';
export { callbackGetUrl } from './callbacks';
export { qpayFaultRules } from './control';
export { createInvoice } from './invoices';
export { recordPayment } from './payments';
export * from './state';

export interface QpaySimulatorOptions extends Partial<QpayOptions> {
  /** Start (and reset to) a few realistic invoices; default true. */
  seed?: boolean;
  logger?: boolean;
}

/** QPay v2 (token, invoices with a real QR PNG, payment check, callbacks) at /v2 and /sandbox/v2. */
export function buildQpaySimulator(options: QpaySimulatorOptions = {}): Simulator & { state: QpayState; ready: Promise<void> } {
  const { logger, seed = true, ...behaviour } = options;
  const sim = createSimulator({ title: 'QPay v2', logger });
  const state = new QpayState(behaviour);
  registerQpayApi(sim.app, state);
  registerControlRoutes(sim.app, state, sim.faults);
  sim.addPageSections(() => qpaySections(state));
  const reseed = async () => {
    state.reset();
    if (seed) await seedDefaultInvoices(state);
  };
  sim.onReset(reseed);
  return { ...sim, state, ready: reseed() };
}
