/**
 * Waits until `probe` gives a value (anything but undefined, null or false), polling every
 * `intervalMs` (50 ms; more for a costly probe or a long wait that should leave the machine idle):
 * for what travels through the bus and outside effects, which a test cannot await directly.
 * Fails after `timeoutMs`, naming `what`.
 */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000, what = 'condition', intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
