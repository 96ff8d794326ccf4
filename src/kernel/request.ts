import type { Logger } from 'pino';

/**
 * Who is asking and how: the types every layer shares about a request. identity makes and reads
 * sessions; the server carries them on each request; areas read them.
 */

export type SessionUser = {
  id: number;
  email: string;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  role: 'user' | 'admin';
  /** The tier a paid, comped or past-due (in grace) member reads; read with the session. */
  paidTierId?: number | null;
};

/** How the current session signed in (SPEC §3 'Current user': signInDetails). */
export type SignInDetails = { loginId: string; authFlowType: string };

/**
 * What a sign-in leaves in the server-side session (`sessions.sess`): never sent to the
 * browser. Cognito keeps its tokens there, for sign-out and nothing else.
 */
export type ProviderSession = {
  signInDetails?: SignInDetails;
  cognito?: { idToken: string; accessToken: string; refreshToken: string };
};

export type RequestSession = {
  /** The current session id, or null until one is needed. */
  id: string | null;
  user: SessionUser | null;
  /** What the identity provider keeps for this session (server-side only). */
  data: ProviderSession;
  /** How the session came: the browser cookie, a Bearer token, or the X-Session-Id header. */
  via: 'cookie' | 'bearer' | 'header' | null;
  /** An admin who must set up two-factor first ('Require two-factor for admins'): no admin page or API yet. */
  twoFactorSetupDue: boolean;
  /**
   * The header's cart count, read with the session; null when it must be counted again: in a
   * request that may change the cart (not GET or HEAD), or after the session changed.
   */
  cartCount: number | null;
  /**
   * Returns the session id, creating a guest session (and its cookie) on first need; with
   * `written`, the upcoming id whose row the caller's own statement wrote (upcomingRow).
   */
  ensure: (written?: string) => Promise<string>;
  /**
   * The id ensure() will create a new guest session under, minted now and written by nothing, so
   * a write can be tried under it first; null when the request has a session or chose the id (an
   * id the client chose may be taken: ensure() decides).
   */
  upcomingId: () => string | null;
  /**
   * The upcoming id's session row, for the caller's own statement to write (a CTE made by
   * guestSessionInsertWhen); null without an upcoming id.
   */
  upcomingRow: () => { sid: string; expires: Date } | null;
  /** Replaces the session (sign-in, sign-out): a new id, so a planted id is worthless. */
  rotate: (userId: number | null, data?: ProviderSession) => Promise<string>;
};

/** What areas read of a request: who asks, from where, and its log. */
export interface RequestContext {
  requestId: string;
  log: Logger;
  clientIp: string;
  /** The User-Agent header, as sent (the Account page names sessions by it). */
  userAgent?: string;
  /** The visitor's session (guest or signed in); see server/session-middleware.ts. */
  session: RequestSession;
  /** Set when a right password was answered with a two-factor challenge (the audit log says so). */
  signInChallenged?: SessionUser;
  /** Set when a two-factor code was refused at sign-in: the account it was for (the audit log names it). */
  signInRefused?: SessionUser;
}
