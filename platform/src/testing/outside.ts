import { MemoryOutsideRateLimit, OutsideSystem, type OutsideOptions } from '../outside';

/** An outside system as a service's build step gets it, for a test of one client: its paces kept in this test's memory. */
export function outsideSystemForTest(options: OutsideOptions): OutsideSystem {
  return new OutsideSystem({ ...options, paces: new MemoryOutsideRateLimit() });
}
