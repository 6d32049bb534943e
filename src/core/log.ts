// The process's logger. pino's Logger is what Fastify logs with, but the two packages type it with different
// generic parameters (pino's custom levels), so the one cast between them is made here, once.
//
// Two formats: readable lines for a person at a terminal (pino-pretty, in this process and synchronous, so a line
// is out before the process exits), and pino's JSON lines for machines (a pipe, a file, a log collector). The
// choice is PDI_LOG_FORMAT's (`pretty` or `json`), else whether stdout is a terminal.
import pino from 'pino';
import type { DestinationStream } from 'pino';
import { createRequire } from 'node:module';
import type PinoPrettyModule from 'pino-pretty';
import type { FastifyBaseLogger } from 'fastify';

export type LogFormat = 'pretty' | 'json';

/** PDI_LOG_FORMAT (`pretty`, `json`, or empty for: pretty on a terminal, JSON otherwise). */
export function logFormat(raw: string | undefined = process.env.PDI_LOG_FORMAT, isTty = process.stdout.isTTY === true): LogFormat {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text === '') return isTty ? 'pretty' : 'json';
  if (text === 'pretty' || text === 'json') return text;
  throw new Error(`PDI_LOG_FORMAT must be "pretty" or "json", got "${raw}"`);
}

let prettyStream: DestinationStream | null = null;

/** One pretty stream per process: every logger (the CLI's, each service's Fastify app) writes through it. */
function prettyDestination(): DestinationStream {
  // Loaded only when used: a process that logs JSON (a server under a supervisor) does not carry it.
  const { PinoPretty } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPrettyModule;
  prettyStream ??= PinoPretty({
    sync: true,
    destination: 1,
    translateTime: 'SYS:HH:MM:ss',
    // The message says it all for a person; the fields stay in the JSON format for machines.
    ignore: 'pid,hostname,service,address,docs,reqId',
    messageFormat: (line, messageKey) => {
      const message = String(line[messageKey] ?? '');
      const service = typeof line.service === 'string' ? line.service : '';
      // A service's lines name it, unless the message does already (the ready line).
      return service && !message.includes(service) ? `${service}: ${message}` : message;
    },
  });
  return prettyStream;
}

export function createLogger(level: string, format: LogFormat = logFormat()): FastifyBaseLogger {
  const logger = format === 'pretty' ? pino({ level }, prettyDestination()) : pino({ level });
  return logger as unknown as FastifyBaseLogger;
}

/** A service app's Fastify logger options: its level, its name on every line, the format's stream. */
export function serviceLoggerOptions(level: string, service: string, format: LogFormat = logFormat()): Record<string, unknown> {
  return { level, base: { service }, ...(format === 'pretty' ? { stream: prettyDestination() } : {}) };
}

/**
 * Whether a level leaves out per-request lines (http/request-logging.ts): at the default level a console shows what
 * the server does, not every hit.
 */
export function requestLoggingDisabled(level: string): boolean {
  const value = pino.levels.values[level];
  return value === undefined || value > pino.levels.values.debug;
}

/** The line that tells a person where a service is, e.g. `ready — oral  http://127.0.0.1:8001/  (API docs …/docs)`. */
export function readyLine(service: string, address: string): string {
  const base = address.endsWith('/') ? address : `${address}/`;
  return `ready — ${service.padEnd(10)} ${base}  (API docs ${base}docs)`;
}

/**
 * Listens without Fastify's own "Server listening at" lines (one per address, from every worker): the caller says
 * once, in its own words, where the service is.
 */
export async function listenQuietly(
  app: { log: FastifyBaseLogger; listen(options: { port: number; host: string }): Promise<string> },
  options: { port: number; host: string },
): Promise<string> {
  const level = app.log.level;
  if (!requestLoggingDisabled(level)) return app.listen(options); // at debug, every line is wanted
  app.log.level = 'warn';
  try {
    return await app.listen(options);
  } finally {
    app.log.level = level;
  }
}
