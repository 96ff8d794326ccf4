import {
  type AppError,
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  RateLimited,
  Refusal,
  TooLarge,
  Unauthorized,
  Unavailable,
  Unprocessable,
  UpstreamFailed,
} from '../kernel/errors.ts';

/** A failure of HTTP itself, found by the server (a method, a body, a range): its status is its kind. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

const STATUS_OF_KIND: [new (...args: never[]) => AppError, number][] = [
  [Invalid, 400],
  [Unauthorized, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [TooLarge, 413],
  [Unprocessable, 422],
  [RateLimited, 429],
  [UpstreamFailed, 502],
  [Unavailable, 503],
];

/**
 * The HTTP status of a thrown error, chosen here once for the API's error handler and page
 * actions alike: an area's kind, a server HttpError's own, a status a library set, or 500.
 */
export function httpStatusOf(error: unknown): number {
  for (const [kind, status] of STATUS_OF_KIND) if (error instanceof kind) return status;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

/** The headers an error's answer carries: Retry-After for a rate limit, a conflict's title, a server HttpError's own. */
export function httpHeadersOf(error: unknown): Record<string, string> {
  if (error instanceof RateLimited) return { 'Retry-After': String(error.retryAfterSeconds) };
  if (error instanceof Conflict && error.title) return { 'X-Error-Title': error.title };
  if (error instanceof HttpError) return error.headers;
  return (error as { headers?: Record<string, string> } | null)?.headers ?? {};
}

/** Whether an error refuses the request (a 4xx): its message is the reader's to see. */
export function isRefusal(error: unknown): error is Error {
  return (error instanceof Refusal || error instanceof HttpError) && httpStatusOf(error) < 500;
}
