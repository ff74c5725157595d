/** Waiting out a dependency that is down (isTransientError): the consumers' in-place retries, and what the effect runner records. */

/** The longest single wait between retries of a transient failure: a dependency that is back is noticed this soon. */
export const TRANSIENT_RETRY_MAX_WAIT_MS = 5_000;

/** The wait before retry number `retry` + 1: doubling from `baseMs`, capped, with jitter so replicas do not retry in step. */
export function transientWait(baseMs: number, retry: number): number {
  const ceiling = Math.min(baseMs * 2 ** retry, TRANSIENT_RETRY_MAX_WAIT_MS);
  return Math.round(ceiling * (0.5 + Math.random() / 2));
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve(finished);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
