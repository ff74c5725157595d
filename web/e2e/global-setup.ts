import { buildWebApp } from './support';

/**
 * The production build the gateway serves (web/dist), made once per run from the code under test
 * rather than once per browser suite (each build costs seconds of both cores).
 */
export default async function setup(): Promise<void> {
  await buildWebApp();
}
