/** A launcher's Ctrl-C (SIGINT) or SIGTERM: says it is stopping, stops once, exits 0 (or 1 if stopping failed). */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // `on`, not `once`: a second signal (tsx relays the terminal's Ctrl-C too) must not kill the stop half-way.
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log('\nStopping…');
      stop().then(
        () => process.exit(0),
        (error) => {
          console.error('stop failed:', error);
          process.exit(1);
        },
      );
    });
  }
}
