// The worker's side of `serve --workers n` (cluster.ts is the primary's, kept apart so that the primary loads no
// service code): data-version news between workers, and stopping when the primary asks.
import cluster from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import { isClusterMessage } from './cluster.ts';
import type { ClusterMessage } from './cluster.ts';
import { DataVersionWatcher } from './service.ts';
import type { ServiceContext } from './service.ts';

/**
 * In a worker: tell the other workers (through the primary) when this one changes a service's data, and forget the
 * data version the others change. `contexts` are this worker's services.
 */
export function joinCluster(contexts: ReadonlyMap<string, ServiceContext>): void {
  if (!cluster.isWorker) return;
  DataVersionWatcher.onInvalidate = (service) => {
    if (process.connected) process.send?.({ pdi: 'data-version', service } satisfies ClusterMessage);
  };
  process.on('message', (message: unknown) => {
    if (isClusterMessage(message) && message.pdi === 'data-version') contexts.get(message.service)?.dataVersion.forget();
  });
}

/**
 * In a worker: run `stop` once, when the primary asks (its SIGTERM or SIGINT), on a SIGTERM sent to this worker, or
 * when the primary is gone; then exit (0, or 1 if stopping failed). A terminal's Ctrl-C reaches every process of the
 * group: the worker leaves SIGINT to the primary, which asks each worker in turn.
 */
export function stopWhenAsked(stop: () => Promise<void>, log: FastifyBaseLogger): void {
  let stopping = false;
  const onStop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ why }, 'worker shutting down: no new connections; requests in flight may finish');
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('message', (message: unknown) => {
    if (isClusterMessage(message) && message.pdi === 'stop') onStop('asked by the primary');
  });
  process.on('SIGTERM', () => onStop('SIGTERM'));
  process.on('SIGINT', () => {});
  process.on('disconnect', () => onStop('the primary is gone'));
}
