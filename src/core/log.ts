// The process's logger. pino's Logger is what Fastify logs with, but the two packages type it with different
// generic parameters (pino's custom levels), so the one cast between them is made here, once.
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';

export function createLogger(level: string): FastifyBaseLogger {
  return pino({ level }) as unknown as FastifyBaseLogger;
}
