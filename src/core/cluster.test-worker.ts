// A worker for src/core/cluster.test.ts: joins the cluster with one service whose watcher reports what happens to
// it, and invalidates that watcher when the test asks (as an import in this worker would).
import { joinCluster } from './cluster-worker.ts';
import { DataVersionWatcher } from './service.ts';
import type { ServiceContext } from './service.ts';
import type { Db } from './db/database.ts';

// invalidate() and forget() touch no database: a watcher without one is enough here.
const watcher = new DataVersionWatcher(null as unknown as Db, 'oral');
watcher.forget = () => process.send?.({ test: 'forgot', service: 'oral' });
joinCluster(new Map([['oral', { dataVersion: watcher } as ServiceContext]]));
process.on('message', (message: { test?: string }) => {
  if (message.test === 'invalidate') watcher.invalidate();
});
process.send?.({ test: 'ready' });
