// The shared Redis connection (rate limits and caches across instances) and what keeps a sick Redis from slowing
// requests down: commands fail fast while the server is unreachable (no offline queue), every command is bounded
// (PDI_REDIS_COMMAND_TIMEOUT_MS), and after repeated failures a circuit stops asking Redis at all until a probe,
// PDI_REDIS_CIRCUIT_RETRY_MS later, finds it answering again. Callers fail open meanwhile.
import type { Redis } from 'ioredis';
import type { RedisLimits } from './config.ts';

interface Log {
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
}

const DEFAULT_LIMITS: RedisLimits = { commandTimeoutMs: 50, circuitFailures: 3, circuitRetryMs: 5000 };

/**
 * ioredis is loaded here, only when a Redis URL is configured, and String.prototype is made fast again right after
 * (see restoreFastStringPrototype): loading it would otherwise slow every loop over a string's characters in the
 * whole process.
 */
export async function connectRedis(url: string, log: Log, limits: RedisLimits = DEFAULT_LIMITS): Promise<Redis> {
  const { Redis } = await import('ioredis');
  restoreFastStringPrototype();
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: limits.commandTimeoutMs > 0 ? limits.commandTimeoutMs : undefined,
    connectTimeout: 2000,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
  let down = false;
  client.on('error', (error) => {
    if (!down) log.warn({ err: error.message }, 'redis unreachable: rate limits fall back to allowing requests');
    down = true;
  });
  client.on('ready', () => {
    down = false;
  });
  circuits.set(client, new RedisCircuit(limits, log));
  return client;
}

/**
 * Closed: commands go to Redis. After `circuitFailures` failures in a row (an error or no answer in time) it opens:
 * no command is sent for `circuitRetryMs`; then one command probes Redis (half-open), and its outcome closes the
 * circuit or opens it for another period.
 */
export class RedisCircuit {
  private failures = 0;
  private openUntil = 0;
  private probing = false;
  readonly limits: RedisLimits;
  private readonly log: Log;
  /** What the circuit guards, as its log lines name it. */
  private readonly what: string;

  constructor(limits: RedisLimits, log: Log, what = 'redis') {
    this.limits = limits;
    this.log = log;
    this.what = what;
  }

  get isOpen(): boolean {
    return this.failures >= this.limits.circuitFailures;
  }

  /** May a command be sent now? (While open, true once per retry period: the probe.) */
  allow(): boolean {
    if (!this.isOpen) return true;
    if (this.probing || Date.now() < this.openUntil) return false;
    this.probing = true;
    return true;
  }

  success(): void {
    if (this.isOpen) this.log.info({}, `${this.what} answers again: the circuit is closed`);
    this.failures = 0;
    this.probing = false;
  }

  failure(error: unknown): void {
    const wasOpen = this.isOpen;
    this.failures++;
    this.probing = false;
    if (!this.isOpen) return;
    this.openUntil = Date.now() + this.limits.circuitRetryMs;
    if (!wasOpen)
      this.log.warn(
        { err: error instanceof Error ? error.message : String(error), retryMs: this.limits.circuitRetryMs },
        `${this.what} failed ${this.failures} times in a row: not asked until a probe finds it answering (requests are let through meanwhile)`,
      );
  }
}

const circuits = new WeakMap<Redis, RedisCircuit>();

/**
 * ioredis 6 defines `class VerbatimString extends String` (built/resp/verbatim-string.js, required by the RESP3
 * decoder that every connection uses; 6.1.0 still does, 5.x, on RESP2, did not). Making String.prototype the
 * prototype of a new object puts it in V8's prototype "setup mode": its properties go to a dictionary. Only a
 * property access through an object whose prototype chain holds it makes a prototype fast again, and an access on a
 * primitive string never does; so `s.charCodeAt(i)` and the other String methods stop being inlined in the whole
 * process (loops over a string's characters, such as C's text fingerprints at import, run several times slower;
 * docs/operations.md gives the figures). A few loads through a String wrapper object, once the loading function has
 * its feedback vector (after about 8 calls), make String.prototype fast for good: V8 marks its map "should be fast",
 * and a later subclass or Object.create(String.prototype) no longer puts it back in setup mode. Harmless when it is
 * fast already.
 * src/core/redis.test.ts checks the state with %HasFastProperties; `npm run bench -- redis-string-prototype` measures
 * the loop, C's import and search, and a rate-limited request.
 */
function restoreFastStringPrototype(): void {
  const wrapper: object = Object('');
  for (let i = 0; i < 100; i++) loadThrough(wrapper);
}

function loadThrough(receiver: object): unknown {
  return (receiver as { pdiNoSuchProperty?: unknown }).pdiNoSuchProperty;
}

/** The circuit of a Redis connection (one per connection, shared by every rate-limit group that uses it). */
export function circuitFor(redis: Redis, limits: RedisLimits, log: Log): RedisCircuit {
  let circuit = circuits.get(redis);
  if (!circuit) {
    circuit = new RedisCircuit(limits, log);
    circuits.set(redis, circuit);
  }
  return circuit;
}
