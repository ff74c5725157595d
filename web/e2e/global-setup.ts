import { buildWebAppIfStale } from './support';

/**
 * The production build the gateway serves (web/dist), made from the code under test once per run
 * rather than once per browser suite, and not at all when it is newer than every source.
 */
export default async function setup(): Promise<void> {
  await buildWebAppIfStale();
}
