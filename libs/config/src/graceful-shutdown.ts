/** How long in-flight requests and jobs get to finish after SIGTERM before the process gives up on them. */
export const SHUTDOWN_GRACE_MS = 25_000;

/**
 * On SIGTERM or SIGINT: stop taking work, let what is in flight finish (bounded), and exit 0, so an
 * orchestrator sees a clean stop. A second signal, or running out of time, exits 1 at once.
 */
export function exitGracefully(close: () => Promise<void>, log: (line: string) => void = () => undefined): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal} received: draining`);
    const timer = setTimeout(() => {
      log('drain timed out');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
