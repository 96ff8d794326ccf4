import type { Context, Middleware } from 'koa';
import type { Db } from '../db/knex.ts';
import { toCsv } from '../kernel/csv.ts';
import type { SessionUser } from '../kernel/request.ts';
import { httpStatusOf } from './error-status.ts';
import { pagePath } from './page-routes.ts';
import type { RequestState } from './request-state.ts';
import type { AppServices } from './services.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every sign-in step: the password (pages and API), the two-factor code (`login-2fa`) and a passkey. */
function isSignIn(method: string, path: string, action: unknown): boolean {
  if (method !== 'POST') return false;
  return (
    path === '/login' ||
    path === '/amplify-login' ||
    (path === '/api/users' && (action === 'login' || action === 'login-2fa' || action === 'passkey-login'))
  );
}

/** Turning two-factor on or off (or starting its setup), by any user: through the API or the Account page. */
function isTwoFactorChange(method: string, path: string, action: unknown, intent: unknown): boolean {
  if (method !== 'POST') return false;
  const what = path === '/api/users' ? action : path === '/account' ? intent : null;
  return typeof what === 'string' && what.startsWith('2fa-');
}

/** What a request did, in a line: the method and path, and the API action or form intent. */
function describe(method: string, path: string, action: unknown, intent: string | null | undefined): string {
  const what = typeof action === 'string' ? action : intent;
  return `${method} ${path}${what ? ` (${what.slice(0, 60)})` : ''}`;
}

/** The record's target: the id in the path or the query, when there is one. */
function targetOf(path: string, query: Record<string, unknown>): string | null {
  const id =
    /\/(\d{1,9})(?:\/|$)/.exec(path)?.[1] ?? (typeof query.id === 'string' ? query.id.slice(0, 20) : null);
  return id ?? null;
}

/** What a sign-in request came to: signed in, a right password awaiting its code, or refused. */
function signInOutcome(before: SessionUser | null, ctx: Context): Omit<Recorded, 'target'> {
  const after: SessionUser | null = ctx.state.session?.user ?? null;
  if (after && after.id !== before?.id) return { action: 'sign-in', actor: after };
  const challenged: SessionUser | undefined = ctx.state.signInChallenged;
  if (challenged) return { action: 'sign-in awaiting two-factor code', actor: challenged };
  const refused: SessionUser | undefined = ctx.state.signInRefused;
  if (refused) return { action: 'sign-in failed: two-factor code refused', actor: refused, refused: true };
  return { action: 'sign-in failed', actor: null };
}

type Recorded = { action: string; actor: SessionUser | null; target: string | null; refused?: boolean };

/** The entry a finished request leaves in the log, or null when it is not one to record. */
function entryOf(ctx: Context, before: SessionUser | null, status: number): Recorded | null {
  const path = pagePath(ctx.path);
  const { action } = ctx.query;
  const intent: string | null | undefined = ctx.state.formIntent;
  if (isSignIn(ctx.method, path, action)) return { ...signInOutcome(before, ctx), target: null };
  if (ctx.method === 'GET')
    return /^attachment\b/i.test(ctx.response.get('content-disposition'))
      ? { action: `GET ${path} (export)`, actor: before, target: null }
      : null;
  if (before?.role === 'admin' || isTwoFactorChange(ctx.method, path, action, intent)) {
    const said: RequestState['audit'] = ctx.state.audit;
    const what = said?.what ?? describe(ctx.method, path, action, intent);
    // Words for the outcome too: an error answer (an API's 4xx) was a refusal as much as a form's.
    const refusal = said?.refused
      ? `: refused (${said.refused})`
      : said?.what && status >= 400
        ? ': refused'
        : '';
    return {
      action: `${what}${refusal}`,
      actor: before,
      target: targetOf(path, ctx.query),
      refused: Boolean(said?.refused),
    };
  }
  return null;
}

/**
 * The audit log: every write an admin makes (API and admin pages alike, whatever it was), every
 * export an admin downloads, every sign-in step, successful or not, and every user's two-factor
 * changes, with who, what, when, the request id and the client's address. Recorded after the
 * answer is decided, with its status; the log has no update or delete path.
 */
export function auditLog(services: Pick<AppServices, 'db'>): Middleware {
  return async (ctx, next) => {
    const before: SessionUser | null = ctx.state.session?.user ?? null;
    // Of reads, only an admin's download of an export (a CSV attachment) is recorded.
    if (!UNSAFE.has(ctx.method) && !(ctx.method === 'GET' && before?.role === 'admin')) return next();
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (error) {
      status = httpStatusOf(error);
      throw error;
    } finally {
      const entry = entryOf(ctx, before, status);
      if (entry)
        await recordAudit(services.db, {
          actorId: entry.actor?.id ?? null,
          actorEmail: entry.actor?.email ?? null,
          action: entry.action,
          target: entry.target,
          // A form answers its refusal with 200 and the message: the log says it was refused.
          status: entry.refused && status < 400 ? 400 : status,
          requestId: ctx.state.requestId ?? null,
          clientIp: ctx.state.clientIp ?? ctx.ip,
        }).catch((err: Error) => ctx.state.log?.error({ err }, 'audit log write failed'));
    }
  };
}

export type AuditEntry = {
  actorId: number | null;
  actorEmail: string | null;
  action: string;
  target: string | null;
  status: number;
  requestId: string | null;
  clientIp: string | null;
};

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db('audit_log').insert({
    actor_id: entry.actorId,
    actor_email: entry.actorEmail,
    action: entry.action.slice(0, 300),
    target: entry.target,
    status: entry.status,
    request_id: entry.requestId,
    client_ip: entry.clientIp,
  });
}

export type AuditRow = AuditEntry & { id: number; at: string };

/** The log, newest first, filtered by who and what (a part of the action's words). */
export async function listAudit(
  db: Db,
  filter: { actor?: string; action?: string; page?: number; limit?: number },
): Promise<{ entries: AuditRow[]; pagination: { page: number; pages: number; total: number } }> {
  const limit = Math.min(Math.max(filter.limit ?? 50, 1), 10_000);
  const page = Math.max(filter.page ?? 1, 1);
  const base = db('audit_log');
  const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (filter.actor?.trim()) base.whereILike('actor_email', like(filter.actor.trim()));
  if (filter.action?.trim()) base.whereILike('action', like(filter.action.trim()));
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows = await base
    .clone()
    .orderBy([
      { column: 'at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .offset((page - 1) * limit)
    .select('*');
  const total = Number(count);
  return {
    entries: rows.map((r) => ({
      id: Number(r.id),
      at: r.at.toISOString(),
      actorId: r.actor_id,
      actorEmail: r.actor_email,
      action: r.action,
      target: r.target,
      status: r.status,
      requestId: r.request_id,
      clientIp: r.client_ip,
    })),
    pagination: { page, pages: Math.max(1, Math.ceil(total / limit)), total },
  };
}

/** Entries past the 90 days kept (the one delete the database allows). */
export async function sweepAuditLog(db: Db): Promise<number> {
  return db('audit_log').where('at', '<', db.raw("now() - interval '90 days'")).delete();
}

export function auditCsv(entries: AuditRow[]): string {
  const header = ['at', 'actor', 'action', 'target', 'status', 'request_id', 'client_ip'];
  return toCsv([
    header,
    ...entries.map((e) =>
      [e.at, e.actorEmail, e.action, e.target, e.status, e.requestId, e.clientIp].map((v) => String(v ?? '')),
    ),
  ]);
}
