import { createHash } from 'node:crypto';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/knex.ts';
import { RateLimited } from './errors.ts';

type RateLimitOptions = {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
  message: string;
};

/**
 * A cap kept in the rows it limits, taken atomically before the work (a conditional update, or a
 * count under the limited row's lock).
 */
type RowCap = { row: string; points?: number };

const FIFTEEN_MINUTES = 15 * 60;

/**
 * Every limit of the app, in one table: the concurrency test enumerates it, so a limit added here
 * is a limit that test covers. Most count per key (an address, an account, an identifier as
 * typed) in a fixed window; the last ones are caps kept on the row they limit.
 */
export const LIMITS = {
  /** Failed sign-ins per identifier as typed (or per account for two-factor codes). */
  signInAccount: {
    keyPrefix: 'signin-account',
    points: 10,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.',
  },
  signInAddress: {
    keyPrefix: 'signin-ip',
    points: 50,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many failed sign-in attempts from your network. Please wait 15 minutes and try again.',
  },
  signUps: {
    keyPrefix: 'signup-ip',
    points: 10,
    durationSeconds: 3600,
    message: 'Too many sign-ups from your network. Please try again later.',
  },
  /** Mailed codes asked for (confirmation re-sends, password resets), per address and identifier. */
  codeRequests: {
    keyPrefix: 'codes',
    points: 5,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many code requests. Please wait 15 minutes before asking for another code.',
  },
  /** Mailed codes tried (confirmation and password reset), per address… */
  codeGuessesAddress: {
    keyPrefix: 'code-guess-ip',
    points: 20,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many code attempts from your network. Please wait 15 minutes and try again.',
  },
  /** …and per identifier as typed, whatever the address (each code also ends after 5 wrong tries). */
  codeGuessesAccount: {
    keyPrefix: 'code-guess-account',
    points: 10,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many code attempts for this account. Please wait 15 minutes and try again.',
  },
  // Each passkey sign-in's options store a challenge row until it expires: a flood would fill the table.
  passkeyOptions: {
    keyPrefix: 'passkey-options-ip',
    points: 30,
    durationSeconds: 60,
    message: 'Too many passkey sign-in attempts from your network. Please wait a minute and try again.',
  },
  /** A signed-in user's security changes (password, two-factor, passkeys), per account. */
  securityChanges: {
    keyPrefix: 'reset',
    points: 10,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many password reset attempts. Please wait 15 minutes and try again.',
  },
  /** Guesses at a two-factor code while turning it on or off (Account page and API), per account. */
  twoFactorCodes: {
    keyPrefix: 'two-factor-code',
    points: 10,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many two-factor code attempts. Please wait 15 minutes and try again.',
  },
  /** Passkeys added, per account. */
  passkeyRegistrations: {
    keyPrefix: 'passkey-register',
    points: 10,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many passkeys added. Please wait 15 minutes and try again.',
  },
  orderLookupAddress: {
    keyPrefix: 'order-lookup-ip',
    points: 20,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many order look-ups from your network. Please wait 15 minutes and try again.',
  },
  orderLookupEmail: {
    keyPrefix: 'order-lookup-email',
    points: 10,
    durationSeconds: FIFTEEN_MINUTES,
    message: 'Too many order look-ups for this email address. Please wait 15 minutes and try again.',
  },
  comments: {
    keyPrefix: 'comment-ip',
    points: 10,
    durationSeconds: 600,
    message: 'Too many comments from your network. Please wait a few minutes and try again.',
  },
  newsletter: {
    keyPrefix: 'newsletter-ip',
    points: 10,
    durationSeconds: 3600,
    message: 'Too many subscriptions from your network. Please try again later.',
  },
  /** Pages an admin's bookmark cards read, per account: each is a request from this server. */
  bookmarks: {
    keyPrefix: 'bookmark-account',
    points: 30,
    durationSeconds: 300,
    message: 'Too many bookmark pages read. Please wait a few minutes and try again.',
  },
  /** Each asks Stripe for a customer and a Checkout Session: per account. */
  subscriptions: {
    keyPrefix: 'subscribe-user',
    points: 10,
    durationSeconds: 3600,
    message: 'Too many attempts to subscribe. Please wait a while and try again.',
  },
  /** Its points are CHECKOUT_RATE_LIMIT's (this is the default). */
  checkout: {
    keyPrefix: 'checkout',
    points: 20,
    durationSeconds: 60,
    message: 'Too many checkout attempts. Please wait a minute and try again.',
  },
  /** Tries of one mailed code (confirmation or password reset): then it is spent. */
  mailedCodeAttempts: { row: 'auth_codes.attempts', points: 5 },
  /** Codes tried on one two-factor sign-in challenge: then the password must be given again. */
  twoFactorChallengeAttempts: { row: 'login_challenges.attempts', points: 5 },
  /** Downloads of one link, the grant's own limit (the shop's setting when it was granted). */
  downloadLink: { row: 'download_grants.downloads' },
  /** Orders one discount code admits, its own usage limit (the code's row is locked while it counts). */
  discountUses: { row: 'discount_uses' },
} as const satisfies Record<string, RateLimitOptions | RowCap>;

export type LimitName = keyof typeof LIMITS;
/** The limits that count in a window, by key. */
export type WindowLimitName = { [K in LimitName]: (typeof LIMITS)[K] extends RowCap ? never : K }[LimitName];

/**
 * A fixed-window limit kept in PostgreSQL (table rate_limits), so every web process shares it.
 * A unit is taken before the work it pays for, in one statement, so parallel requests cannot all
 * pass: consume throws RateLimited, with the seconds until the window ends, once the key has used its points.
 */
export type RateLimit = {
  consume: (key: string) => Promise<void>;
  /** Gives back a unit consume took, where the rule says that outcome does not count. */
  refund: (key: string) => Promise<void>;
  reset: (key: string) => Promise<void>;
};

const limits = new WeakMap<Db, Map<string, RateLimit>>();

/**
 * The limit of that name; `points` overrides the table's where a setting decides it. The only way
 * to a limit: one not in LIMITS cannot be made, so none escapes the concurrency test.
 */
export function rateLimit(db: Db, name: WindowLimitName, points?: number): RateLimit {
  return createRateLimit(db, { ...LIMITS[name], points: points ?? LIMITS[name].points });
}

function createRateLimit(db: Db, opts: RateLimitOptions): RateLimit {
  // One limiter per database and prefix, however often a request handler asks for it.
  let byPrefix = limits.get(db);
  if (!byPrefix) {
    byPrefix = new Map();
    limits.set(db, byPrefix);
  }
  const cacheKey = `${opts.keyPrefix}|${opts.points}|${opts.durationSeconds}`;
  const cached = byPrefix.get(cacheKey);
  if (cached) return cached;
  const limit = buildRateLimit(db, opts);
  byPrefix.set(cacheKey, limit);
  return limit;
}

/**
 * Deletes counters whose window has ended. Limits are per client address, so without this the
 * table keeps one row for every address that ever checked out, commented or signed in (the
 * limiter's own timer is off: the worker's maintenance sweep calls this instead).
 */
export async function sweepExpiredRateLimits(db: Db): Promise<number> {
  return db('rate_limits').where('expire', '<', Date.now()).delete();
}

/**
 * rate_limits.key is varchar(255) with the prefix in front: a key as long as a typed identifier
 * can be (an email of 254 characters) is kept as its hash, the same for the same key.
 */
const storedKey = (key: string) =>
  key.length <= 160 ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`;

function buildRateLimit(db: Db, opts: RateLimitOptions): RateLimit {
  const limiter = new RateLimiterPostgres({
    storeClient: db,
    storeType: 'knex',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: opts.keyPrefix,
    points: opts.points,
    duration: opts.durationSeconds,
  });
  const tooMany = (msBeforeNext: number) =>
    new RateLimited(opts.message, Math.max(1, Math.ceil(msBeforeNext / 1000)));
  return {
    async refund(key) {
      await limiter.reward(storedKey(key), 1);
    },
    async reset(key) {
      await limiter.delete(storedKey(key));
    },
    async consume(key) {
      try {
        await limiter.consume(storedKey(key));
      } catch (error) {
        if (error instanceof RateLimiterRes) throw tooMany(error.msBeforeNext);
        throw error;
      }
    },
  };
}
