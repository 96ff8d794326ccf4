/**
 * The failures every area may throw, each with a message its reader can act on and no HTTP
 * status: the edge (the server's error handler, and routeErrorStatus for page actions) chooses
 * the status by the kind, so services work the same from a CLI, a job or a test.
 */
export abstract class AppError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request is refused: the reader's input, their rights, or the state of things. */
export abstract class Refusal extends AppError {}

/** The input is malformed or breaks a rule of its own. */
export class Invalid extends Refusal {}

/** Signing in is needed, or the credentials given are wrong. */
export class Unauthorized extends Refusal {}

/** The signed-in reader may not do this. */
export class Forbidden extends Refusal {}

/** The thing asked for does not exist (or is not the reader's to see). */
export class NotFound extends Refusal {}

/** The thing exists but its state forbids the change (taken, already done, out of stock). */
export class Conflict extends Refusal {
  /** A heading for the message where a page shows one ('Out of stock'). */
  readonly title: string | undefined;
  constructor(message: string, title?: string) {
    super(message);
    this.title = title;
  }
}

/** A body or file larger than the area accepts. */
export class TooLarge extends Refusal {}

/** Well-formed input that cannot be acted on as things stand (an empty cart at checkout). */
export class Unprocessable extends Refusal {}

/** Too many tries: the reader may try again after retryAfterSeconds. */
export class RateLimited extends Refusal {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A service we depend on (Stripe, Cognito) answered with something we cannot use. */
export class UpstreamFailed extends AppError {}

/** A service we depend on could not be reached: trying again later may work. */
export class Unavailable extends AppError {}
