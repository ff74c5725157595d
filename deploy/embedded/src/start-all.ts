/**
 * Runs every start at once and waits for all of them to settle before throwing the first failure:
 * the caller's stop() must find each part that did start, never one still starting behind a failure.
 */
export async function startAll<T extends readonly unknown[]>(starts: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const settled: PromiseSettledResult<unknown>[] = await Promise.allSettled(starts);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
