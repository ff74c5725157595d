/**
 * `BENCH_SMOKE=1` (what `make test` sets for `make bench-smoke`): every bench runs each step for a
 * few seconds, prints its figures and targets as usual, and exits non-zero only when a step cannot
 * run. Its figures are too short to quote; they prove the benches still run.
 */
export const smoke = process.env.BENCH_SMOKE === '1';

/** `full` in a measuring run, `short` in the smoke. */
export function scaled<T>(full: T, short: T): T {
  return smoke ? short : full;
}

/** The line each bench prints first, so a smoke run's figures are never mistaken for a measurement. */
export function modeLine(): string {
  return smoke ? 'BENCH_SMOKE=1: short steps, figures only prove the bench runs (run `make bench` to measure)' : 'measuring run';
}
