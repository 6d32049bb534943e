// The PostgreSQL pool as Kysely sees it, made to survive lost connections: a backend terminated by an
// administrator, a server restarted or a connection cut by the network must neither crash the process nor fail a
// read that another connection can answer.
import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/** True when the error means this connection (or the server) is gone, not that the statement was wrong. */
export function isConnectionLoss(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  const code = String(e.code ?? '');
  if (/^(08|57P0)/.test(code) || ['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT'].includes(code)) return true;
  return /Connection terminated|not queryable|Connection ended/i.test(String(e.message ?? ''));
}

const READ = /^\s*select\b/i;
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|end|abort|rollback)\b(?!\s+to\b)/i;

/**
 * Kysely's view of a pg pool where
 * - every client listens for 'error' for its whole life: pg-pool listens only while a client is idle, and a
 *   checked-out client whose server goes away emits 'error' with no listener, which Node turns into an uncaught
 *   exception (3 crashes in 8 trials of an immediate PostgreSQL stop). The statement running on it fails with the
 *   same error, and the pool drops the client when it is released;
 * - a SELECT outside a transaction that failed because its connection was lost is run again on another connection
 *   (up to `retries` times; a write or a statement inside a transaction is never repeated: whether it took effect
 *   is unknown). While the server itself is down the retry fails at once (connection refused) and the caller
 *   answers 503.
 */
export function resilientPool(pool: pg.Pool, retries = 2): PostgresPool {
  pool.on('error', () => {}); // an idle client lost: the pool has already replaced it
  pool.on('connect', (client) => client.on('error', () => {}));
  const inTransaction = new WeakSet<pg.PoolClient>();
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  const retryRead = async (text: string, params: unknown[], first: unknown) => {
    let last = first;
    for (let attempt = 0; attempt < retries; attempt++) {
      try {
        return await pool.query(text, params);
      } catch (error) {
        if (!isConnectionLoss(error) || (error as { code?: string }).code === 'ECONNREFUSED') throw error;
        last = error;
      }
    }
    throw last;
  };

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (wrapper) return wrapper;
    const query = (textOrCursor: unknown, params?: readonly unknown[]): unknown => {
      if (typeof textOrCursor !== 'string') return client.query(textOrCursor as pg.Submittable); // a cursor: never repeated
      if (BEGIN.test(textOrCursor)) inTransaction.add(client);
      else if (END.test(textOrCursor)) inTransaction.delete(client);
      const values = params ? [...params] : [];
      const retryable = READ.test(textOrCursor) && !inTransaction.has(client);
      return client.query(textOrCursor, values).catch((error: unknown) => {
        if (!retryable || !isConnectionLoss(error)) throw error;
        return retryRead(textOrCursor, values, error);
      });
    };
    wrapper = {
      query: query as PostgresPoolClient['query'],
      release: (destroy?: boolean) => client.release(destroy),
      get processID() {
        // pg's Client keeps the backend's pid as processID (Kysely reads it to cancel queries); @types/pg omits it.
        return (client as unknown as { processID?: number }).processID;
      },
    };
    wrappers.set(client, wrapper);
    return wrapper;
  };

  return {
    // pg-pool keeps its client class as `Client` (Kysely opens control connections with it); @types/pg omits it.
    Client: (pool as unknown as { Client: PostgresPool['Client'] }).Client,
    options: pool.options,
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
