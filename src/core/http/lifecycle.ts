// Stopping the listeners of a process: on SIGTERM or SIGINT no new connection is accepted, idle keep-alive
// connections are closed, requests in flight finish (their connections close after the answer) within the grace
// period, and whatever is still open then (a client that never finishes sending, a very slow download) is cut.
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceApp } from '../service.ts';
import { isEcho } from '../cluster.ts';

/** Closes the listeners gracefully; resolves once every connection is gone (at most about `graceMs` later). */
export async function closeListeners(apps: readonly ServiceApp[], graceMs: number, log: FastifyBaseLogger): Promise<void> {
  const closed = Promise.allSettled(apps.map((app) => app.close()));
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace over'>((resolve) => {
    timer = setTimeout(() => resolve('grace over'), graceMs);
  });
  const outcome = await Promise.race([closed.then(() => 'closed' as const), graceOver]);
  clearTimeout(timer);
  if (outcome === 'grace over') {
    const open = await Promise.all(apps.map((app) => openConnections(app)));
    log.warn({ graceMs, connections: open.reduce((a, b) => a + b, 0) }, 'grace period over: closing the connections still open');
    for (const app of apps) app.server.closeAllConnections();
    await closed;
  }
}

function openConnections(app: ServiceApp): Promise<number> {
  return new Promise((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)));
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT and exits with 0 when it is done (1 if it failed); a second signal
 * (not the echo of the first: `isEcho`) exits at once with 1.
 */
export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<void>, log: FastifyBaseLogger): void {
  let stopping = false;
  let stoppedAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping && isEcho(stoppedAt)) return;
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    stoppedAt = Date.now();
    log.info({ signal }, 'shutting down: no new connections; requests in flight may finish');
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
