// One way to build a service's HTTP listener: the service supplies routes and its error body; the kernel
// supplies validation messages, HEAD, 405 with Allow, JSON 404, optional trailing slash, route aliases,
// ETag/304, Cache-Control, the response cache, OpenAPI 3.1 at /openapi.json and 3.0.3 at /openapi-3.0.json, a
// /docs page, a / that names the service, security headers, request logging, /metrics, 503 while the database is
// unreachable, timeouts for slow clients, a client-address rule that proxies cannot be forged past, and
// /api/sync-status/ (how current the data is; hidden from OpenAPI).
import http, { STATUS_CODES } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import Fastify from 'fastify';
import type { FastifyError, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceApp, ServiceContext, ServiceModule, ServingContext } from '../service.ts';
import { HttpError, ParameterError, isUnavailableError, validationMessage } from './errors.ts';
import type { AjvError } from './errors.ts';
import { OPENAPI_30_PATH, openApiOptions } from './openapi.ts';
import { registerHome } from './home.ts';
import { serviceLoggerOptions } from '../log.ts';
import { RequestLogController } from './request-logging.ts';
import { registerSecurityHeaders } from './security.ts';
import type { Config } from '../config.ts';
import type { DirectLimit } from './rate-limit.ts';
import compress from '@fastify/compress';
import { COMPRESS_MIN_BYTES, DirectHits, ResponseCache, cacheRoute, finishCaching } from './caching.ts';
import type { CachingOptions } from './caching.ts';
import { registerApiReference } from './api-reference.ts';
import { registerMetrics } from './metrics.ts';
import { registerSyncStatus } from '../sync/publish.ts';
import { registerPages } from '../pages/register.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Names the operation in the generic 500 message ("search error: unexpected failure"). */
    operation?: string;
    /** Overrides the service's Cache-Control max-age for this route (0: no-cache). */
    cacheSeconds?: number;
    /** Keep whole responses of this GET route in the server-side cache until the data version changes. */
    responseCache?: boolean;
    /** The name the OpenAPI documents give the path parameter of a route ending in `*` (Fastify names it `*`). */
    wildcard?: string;
    /** The route answers CORS preflights itself (OPTIONS is not turned into 405). */
    cors?: boolean;
    /** Error statuses this route answers beyond the kernel's (e.g. 409), documented with the service's error body. */
    errors?: number[];
    /** Set by rateLimitedGroup: the route's rate-limit group (its OpenAPI entry documents 429). */
    limitGroup?: string;
    /** Set by rateLimitedGroup: how the HTTP listener counts a cache hit of the route against the client's limit. */
    directLimit?: DirectLimit;
  }
}

const directHitsByApp = new WeakMap<object, DirectHits>();

/** The app's direct answerer of cache hits, if it has one (for tests and diagnostics). */
export function directHitsOf(app: object): DirectHits | undefined {
  return directHitsByApp.get(app);
}

/**
 * Every method Node's parser reads, so that any of them on an existing path gets 405 with Allow (Fastify routes
 * only nine and answers the rest 404). CONNECT aside: Node hands it to the 'connect' event, never to a route.
 */
const ALL_METHODS = http.METHODS.filter((m) => m !== 'CONNECT');

export interface BuildOptions {
  logger?: boolean | Record<string, unknown>;
  /** Let the listener answer cache hits of plain routes before Fastify (DirectHits; default true; tests compare). */
  directHits?: boolean;
}

export async function buildServiceApp(service: ServiceModule, ctx: ServiceContext, options: BuildOptions = {}): Promise<ServiceApp> {
  const limits = ctx.config.http;
  // Cache hits of plain routes are answered by the listener before Fastify (DirectHits, caching.ts); set below.
  let directHits: DirectHits | null = null;
  const httpOptions: http.ServerOptions = {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    connectionsCheckingInterval: checkingInterval(limits.requestTimeoutMs, limits.headersTimeoutMs),
  };
  const app = Fastify({
    logger: options.logger ?? serviceLoggerOptions(ctx.config.logLevel, service.name),
    logController: new RequestLogController(),
    trustProxy: trustProxyRule(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    // Slow clients: a request must arrive whole within requestTimeoutMs (its headers within headersTimeoutMs),
    // else 408 and the connection is closed; Node checks every connectionsCheckingInterval.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: httpOptions,
    // While stopping, a request that still arrives on an open connection is served (with Connection: close),
    // not refused: the listener is already closed to new connections, and the grace period bounds the rest.
    return503OnClosing: false,
    // Fastify's own HTTP/1.1 server (lib/server.js, the same settings), with a listener that lets DirectHits answer first.
    serverFactory: (handler) => {
      const server = http.createServer(httpOptions, (req, res) => {
        if (directHits === null || !directHits.answer(req, res, handler)) handler(req, res);
      });
      server.keepAliveTimeout = limits.keepAliveTimeoutMs;
      server.requestTimeout = limits.requestTimeoutMs;
      server.setTimeout(0); // Fastify's connectionTimeout default
      return server;
    },
    clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
      answerClientError(service, limits, error, socket);
    },
    // Errors Fastify raises before routing (a URL that is not valid percent-encoding) get the service's body too.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      reply.code(400).header('content-type', 'application/json; charset=utf-8');
      reply.send(
        JSON.stringify(
          service.errorBody({
            status: 400,
            message: `invalid URL: ${error.message.replace(/^'.*' is /, 'it is ')}`,
            code: 'INVALID_PARAMETER',
          }),
        ),
      );
    },
    ajv: {
      customOptions: {
        coerceTypes: true,
        useDefaults: true,
        removeAdditional: false,
        allErrors: false,
        verbose: true,
        keywords: ['x-error'],
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  for (const method of ALL_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);

  // JSON only: without its text parser Fastify answers any other body type with 415.
  app.removeContentTypeParser('text/plain');

  registerErrorReplies(app, service);

  // Remember every route's methods, to answer the other methods with 405 and an Allow header.
  const routes = new Map<string, { methods: Set<string>; cors: boolean }>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const url = route.url ?? '/';
    const entry = routes.get(url) ?? { methods: new Set<string>(), cors: false };
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) entry.methods.add(m.toUpperCase());
    if (entry.methods.has('GET')) entry.methods.add('HEAD'); // Fastify adds HEAD to every GET route
    if (route.config?.cors) entry.cors = true;
    routes.set(url, entry);
  });

  // Answers held in the server-side cache (per service, bounded by bytes); a route with `responseCache: true` answers
  // a hit in its own onRequest hook (caching.ts). Buffered answers are compressed there too, so @fastify/compress is
  // left only streams (exports) and skips the cached routes.
  const cacheBytes = ctx.config.responseCacheBytes[service.name];
  const caching: CachingOptions = {
    defaultCacheSeconds: service.cacheSeconds,
    cache: cacheBytes > 0 && ctx.config.responseCacheEntries > 0 ? new ResponseCache(cacheBytes, ctx.config.responseCacheEntries) : null,
    dataVersion: ctx.dataVersion,
  };
  app.addHook('onRoute', (route) => {
    cacheRoute(caching, route as RouteOptions);
    if (route.config?.responseCache === true) route.compress = false;
  });

  registerSecurityHeaders(app);
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: COMPRESS_MIN_BYTES, globalDecompression: false });
  await app.register(swagger, openApiOptions(service, '3.1.0', 'swagger'));
  await app.register(swagger, openApiOptions(service, '3.0.3', 'swagger30'));

  app.addHook('preValidation', usableText);
  app.addHook('preValidation', strictNumbers);
  app.addHook('onSend', finishCaching.bind(caching));

  app.get('/openapi.json', { schema: { hide: true }, config: { cacheSeconds: 300 } }, async () => app.swagger());
  app.get(OPENAPI_30_PATH, { schema: { hide: true }, config: { cacheSeconds: 300 } }, async () => app.swagger30());
  registerApiReference(app);
  const observe = registerMetrics(app, service.name, ctx, service.newestObservation);
  if (caching.cache !== null && options.directHits !== false) {
    const direct = new DirectHits(caching, observe, app.log, clientAddressRule(trustProxyRule(ctx.config.trustProxy)));
    app.addHook('preClose', (done) => {
      direct.closing = true;
      done();
    });
    directHits = direct;
    directHitsByApp.set(app, direct);
  }
  registerSyncStatus(app, ctx, service.newestObservation);

  // The service's state, made once for this app (one per service and process) and shared by its routes and pages.
  const serving: ServingContext = { ...ctx, state: await service.createState?.(ctx) };
  await app.register(async (scope) => service.routes(scope as ServiceApp, serving));
  if (service.pages) await registerPages(app, service.pages, serving, service.newestObservation);

  if (!routes.has('/')) registerHome(app, service); // unless the service has a page of its own there
  await answerOtherMethods(app, routes);

  return app;
}

/** Every error as the service's JSON error body: thrown HttpErrors, validation failures, 503, Fastify's 4xx, 500, 404. */
function registerErrorReplies(app: ServiceApp, service: ServiceModule): void {
  const sendError = (reply: FastifyReply, status: number, message: string, code: string) => {
    reply.code(status).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store');
    return reply.send(JSON.stringify(service.errorBody({ status, message, code })));
  };

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendError(reply, error.statusCode, error.message, error.code);
    }
    const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
    if (fe.validation) {
      const { message, code } = validationMessage(fe.validation, fe.validationContext);
      return sendError(reply, 400, message, code);
    }
    if (isUnavailableError(error)) {
      request.log.error({ err: error }, 'dependency unavailable');
      return sendError(reply, 503, 'the service is temporarily unavailable (database unreachable); retry shortly', 'SERVICE_UNAVAILABLE');
    }
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const messages: Record<string, string> = {
        FST_ERR_CTP_BODY_TOO_LARGE: 'request body is too large (limit 1 MiB)',
        FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request body must be application/json',
        FST_ERR_CTP_EMPTY_JSON_BODY: 'request body is empty; send a JSON object',
        FST_ERR_CTP_INVALID_JSON_BODY: 'request body is not valid JSON',
      };
      const message = messages[fe.code] ?? (fe instanceof SyntaxError ? 'request body is not valid JSON' : fe.message);
      return sendError(
        reply,
        status,
        message,
        status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_PARAMETER',
      );
    }
    request.log.error({ err: error }, 'unexpected failure');
    const operation = request.routeOptions.config?.operation ?? 'request';
    return sendError(reply, 500, `${operation} error: unexpected failure`, 'INTERNAL_ERROR');
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `no such endpoint: ${request.method} ${request.url.split('?')[0]}`, 'NOT_FOUND'),
  );
}

/**
 * Each route's other methods (every method Node's parser reads, but OPTIONS on a route that answers CORS preflights)
 * answer 405 with an Allow header naming the route's methods.
 */
async function answerOtherMethods(app: ServiceApp, routes: Map<string, { methods: Set<string>; cors: boolean }>): Promise<void> {
  await app.register(async (scope) => {
    for (const [url, { methods, cors }] of routes) {
      // (a wildcard that answers only OPTIONS is a CORS preflight catch-all, not a path of its own)
      if (url === '*' || (url.endsWith('*') && [...methods].every((m) => m === 'OPTIONS'))) continue;
      const allowed = [...methods].filter((m) => m !== 'HEAD');
      const allowHeader = [...methods].sort().join(', ');
      const missing = ALL_METHODS.filter((m) => !methods.has(m) && !(m === 'OPTIONS' && cors));
      if (missing.length === 0) continue;
      scope.route({
        method: [...missing],
        url,
        schema: { hide: true },
        // Before the body is read: a method's body rules (QUERY requires a Content-Type) must not turn 405 into 400.
        onRequest: async (_request: FastifyRequest, reply: FastifyReply) => {
          reply.header('allow', allowHeader);
          throw new HttpError(405, `${allowed.join(' or ')} method required`, 'METHOD_NOT_ALLOWED');
        },
        handler: async () => {
          throw new HttpError(405, `${allowed.join(' or ')} method required`, 'METHOD_NOT_ALLOWED');
        },
      });
    }
  });
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Ajv's coercion reads query and path text with Number(), which also accepts "0x10", "1e3" and " ";
 * a parameter declared integer or number must be written as a plain decimal.
 */
async function strictNumbers(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as { querystring?: JsonSchema; params?: JsonSchema } | undefined;
  if (!schema) return;
  for (const [part, values] of [
    [schema.querystring, request.query],
    [schema.params, request.params],
  ] as const) {
    const properties = part?.properties;
    if (!properties || !values) continue;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      const type = properties[name]?.type;
      if (typeof value !== 'string' || (type !== 'integer' && type !== 'number')) continue;
      if (!(type === 'integer' ? INTEGER_TEXT : NUMBER_TEXT).test(value))
        throw new ParameterError(`${name} must be ${type === 'integer' ? 'an integer' : 'a number'}`, name, 'type', { type });
    }
  }
}

type JsonSchema = { properties?: Record<string, { type?: string }> };

const TEXT_PROBLEMS = {
  surrogate: 'is not valid Unicode (it holds a lone UTF-16 surrogate)',
  nul: 'holds a NUL character (U+0000)',
} as const;

/** Why a client's text cannot be used, or null: a lone UTF-16 surrogate (JSON may spell one "\ud800"), or NUL. */
function textProblem(text: string): keyof typeof TEXT_PROBLEMS | null {
  if (!text.isWellFormed()) return 'surrogate';
  if (text.includes('\u0000')) return 'nul';
  return null;
}

/**
 * Client text that no database column can hold the same way (PostgreSQL refuses NUL in text and lone
 * surrogates in json; SQLite takes both) is refused with a 400 naming where it is, before any handler stores
 * or compares it, so both databases answer alike.
 */
async function usableText(request: FastifyRequest): Promise<void> {
  // [value, where it is as the message says it, the top-level parameter or body field it belongs to]
  const pending: Array<[unknown, string, string]> = [
    [request.query, 'query parameter ', ''],
    [request.params, 'path parameter ', ''],
    [request.body, 'body', ''],
  ];
  while (pending.length > 0) {
    const [value, where, parameter] = pending.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) throw new ParameterError(`${where}: text ${TEXT_PROBLEMS[problem]}`, parameter, 'text', { problem });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push([item, `${where}[${i}]`, parameter]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const problem = textProblem(key);
        if (problem)
          throw new ParameterError(`${where.trim()}: a name ${TEXT_PROBLEMS[problem]}`, parameter, 'text', { problem, name: true });
        pending.push([item, where.endsWith(' ') ? `${where}${key}` : `${where}.${key}`, parameter || key]);
      }
    }
  }
}

/** Registers the same routes at the specification's address and at old addresses kept as aliases (hidden from OpenAPI). */
export async function withAliases(
  app: ServiceApp,
  addresses: { spec: string; aliases: string[] },
  routes: (scope: ServiceApp, isAlias: boolean) => Promise<void> | void,
): Promise<void> {
  await app.register(async (scope) => routes(scope as ServiceApp, false), { prefix: addresses.spec });
  for (const prefix of addresses.aliases) {
    await app.register(
      async (scope) => {
        scope.addHook('onRoute', (route) => {
          route.schema = { ...(route.schema ?? {}), hide: true };
        });
        await routes(scope as ServiceApp, true);
      },
      { prefix },
    );
  }
}

/** Fastify's rule for which peers may tell the client's address. */
function trustProxyRule(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  // Fastify 5 refuses a bare hop count (it cannot check the immediate peer); a count here means the service is
  // reachable only through that many proxies, so the nearest `setting` hops (hop 0 is the socket's peer) are them.
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/**
 * The client's address as Fastify's `request.ip` gives it under the same rule (fastify/lib/request.js): the socket's
 * peer, or, behind trusted proxies, the nearest address in X-Forwarded-For not trusted. Rate limits count by it.
 */
function clientAddressRule(rule: ReturnType<typeof trustProxyRule>): (req: IncomingMessage) => string | undefined {
  if (rule === false) return (req) => req.socket.remoteAddress;
  const trusted = rule === true ? () => true : typeof rule === 'function' ? rule : knownAnswers(proxyAddr.compile(rule));
  return (req) => proxyAddr.all(req, trusted).at(-1);
}

/**
 * A compiled list of trusted addresses and subnets decides by the address alone (proxy-addr's compiled function
 * ignores the hop): its answers are kept, since the peers (a proxy or a few) repeat on every request and parsing
 * each again would be most of the cost of reading the client's address.
 */
function knownAnswers(trust: (address: string, hop: number) => boolean): (address: string) => boolean {
  const known = new Map<string, boolean>();
  return (address) => {
    let answer = known.get(address);
    if (answer === undefined) {
      answer = trust(address, 0);
      if (known.size >= 1024) known.clear(); // (any number of distinct forwarded addresses: never unbounded)
      known.set(address, answer);
    }
    return answer;
  };
}

/** How often Node looks for requests past their deadline: often enough that a timeout fires near its time. */
function checkingInterval(requestTimeoutMs: number, headersTimeoutMs: number): number {
  const shortest = Math.min(...[requestTimeoutMs, headersTimeoutMs].filter((ms) => ms > 0), 30_000);
  return Math.max(50, Math.min(1000, Math.floor(shortest / 4)));
}

/**
 * A request the HTTP parser gave up on (its headers or body did not arrive in time, or it is not HTTP) gets the
 * service's JSON error body, like every other error, and its connection is closed.
 */
function answerClientError(service: ServiceModule, limits: Config['http'], error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node gives both deadlines the same error; a request whose headers were read has its response object already.
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  const [status, message, code] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? response
        ? [408, `the request did not arrive in time (the limit is ${limits.requestTimeoutMs / 1000} s)`, 'REQUEST_TIMEOUT']
        : [408, `the request headers did not arrive in time (the limit is ${limits.headersTimeoutMs / 1000} s)`, 'REQUEST_TIMEOUT']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `the request headers (with the URL) are too large: the limit is ${http.maxHeaderSize / 1024} KiB`, 'HEADERS_TOO_LARGE']
        : [400, 'the request is not valid HTTP', 'BAD_REQUEST'];
  const body = JSON.stringify(service.errorBody({ status, message, code }));
  if (socket.writable && !response?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
