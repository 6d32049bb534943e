// Errors as the contract states them: a status, a message that names the parameter and what is allowed,
// and a machine code. Each service turns them into its own body shape (ServiceModule.errorBody).

const DEFAULT_CODES: Record<number, string> = {
  400: 'INVALID_PARAMETER',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, message: string, code?: string, headers: Record<string, string> = {}) {
    // The answer to a client's mistake (4xx) is never logged, so its stack is never read; capturing one was a tenth
    // of a 429's cost under a flood from one client
    const stackTraceLimit = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.code = code ?? DEFAULT_CODES[statusCode] ?? 'ERROR';
    this.headers = headers;
  }
}

/**
 * A parameter the kernel's own checks refused (a number not written as a plain decimal, unusable text, a date that is
 * not on the calendar, a missing parameter), with what a page needs to say it in its own language: the parameter, the
 * check it failed (an Ajv keyword where one fits: `type`, `required`; else the kernel's: `text`, `realDate`) and that
 * check's values. Its message is the API's, unchanged.
 */
export class ParameterError extends HttpError {
  readonly parameter: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;

  constructor(message: string, parameter: string, keyword: string, params: Record<string, unknown> = {}, code = 'INVALID_PARAMETER') {
    super(400, message, code);
    this.parameter = parameter;
    this.keyword = keyword;
    this.params = params;
  }
}

export function badRequest(message: string, code = 'INVALID_PARAMETER'): HttpError {
  return new HttpError(400, message, code);
}

export function missingParameter(name: string): HttpError {
  return new ParameterError(`${name} is required`, name, 'required', { missingProperty: name }, 'MISSING_PARAMETER');
}

export function notFound(message: string, code = 'NOT_FOUND'): HttpError {
  return new HttpError(404, message, code);
}

export interface ErrorInfo {
  status: number;
  message: string;
  code: string;
}

/** Ajv errors (Fastify's `error.validation`) turned into one message naming the parameter. */
export function validationMessage(errors: readonly AjvError[], context: string | undefined): { message: string; code: string } {
  const error = errors[0];
  const where = context === 'body' ? 'body' : (context ?? 'request');
  if (!error) return { message: `invalid ${where}`, code: 'INVALID_PARAMETER' };
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty ?? '').replace(/^\//, '');
    return { message: `${name} is required`, code: 'MISSING_PARAMETER' };
  }
  const path = (error.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const name = path || where;
  const custom = error.parentSchema?.['x-error'];
  if (typeof custom === 'string') return { message: `${name} ${custom}`, code: 'INVALID_PARAMETER' };
  return { message: `${name} ${describe(error)}`, code: 'INVALID_PARAMETER' };
}

export interface AjvError {
  keyword: string;
  instancePath?: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: Record<string, unknown>;
}

function describe(error: AjvError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'type':
      return p.type === 'integer' ? 'must be an integer' : p.type === 'number' ? 'must be a number' : `must be of type ${p.type}`;
    case 'minimum':
      return `must be at least ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    case 'minLength':
      return `must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'additionalProperties':
      return `has an unknown field "${p.additionalProperty}"`;
    case 'anyOf': {
      const options = (error.parentSchema?.anyOf as { const?: unknown }[] | undefined)?.map((s) => s.const).filter((c) => c !== undefined);
      return options && options.length ? `must be one of: ${options.join(', ')}` : 'has an invalid value';
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/** True when the error means the database (or another dependency) cannot be reached: answer 503, not 500. */
export function isUnavailableError(error: unknown): boolean {
  const e = error as { code?: string; message?: string; errno?: string } | null;
  if (!e) return false;
  const code = String(e.code ?? e.errno ?? '');
  if (['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE', 'SQLITE_BUSY', 'SQLITE_CANTOPEN'].includes(code))
    return true;
  if (/^(08|57P0)/.test(code)) return true; // PostgreSQL connection exception / admin shutdown classes
  const message = e.message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|database is locked/i.test(
    message,
  );
}
