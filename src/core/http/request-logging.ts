// Fastify's per-request lines ("incoming request", "request completed") only when the logger is at debug or finer;
// a request that failed is logged at any level. Apart from core/log.ts because it loads Fastify, which the CLI's
// primary process does not.
import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLoggingDisabled } from '../log.ts';

export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!requestLoggingDisabled(request.log.level)) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error || !requestLoggingDisabled(request.log.level)) super.requestCompleted(error, request, reply, metadata);
  }
}
