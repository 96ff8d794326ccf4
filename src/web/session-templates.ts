import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Context, Middleware } from 'koa';
import type { ServerBuild } from 'react-router';
import { accessKey } from '../blog/paywall.ts';
import { readerAccess } from '../identity/membership.ts';
import { SESSION_COOKIE } from '../identity/sessions.ts';
import { ByteLru } from '../server/byte-lru.ts';
import { type PageCache, storedEncoding } from '../server/page-cache.ts';
import type { RequestState } from '../server/request-state.ts';
import type { AppServices } from '../server/services.ts';
import { compressPart, splicedGzip } from '../server/spliced-gzip.ts';
import { cartOwnerOf, cartSignature } from '../shop/cart.ts';
import { pageRouteOf } from './route-match.ts';

/**
 * Pages rendered for a session (a signed-in reader, a guest with a cart), rendered once per shape
 * and kept as templates. What makes such a page one visitor's own is small: the header's account
 * menu (their email), the cart count, the CSP nonce, and the same values in the hydration data.
 * A page is rendered with placeholders for the email, the username and the nonce; the visitor's
 * values are spliced in per response, and so is a new key for a form that needs one (checkout's).
 * Everything else a render could depend on is in the key: the URL, the theme, signed in or not,
 * admin or not, the reader's paid tier (a gated post's body), and the cart count (for the cart and checkout pages, the cart's lines). Templates are dropped with
 * the page cache (an admin's write, in any process) and live no longer than its TTL.
 *
 * Only routes whose `handle` says `sessionTemplate` take this path: their loaders read nothing of
 * the session but the root's user and cart count (and the cart pages their cart). A render that
 * reads more of it is served but not kept. A visitor whose values would need escaping is rendered
 * live. The cart and checkout pages show the lines' ids, so their templates serve one cart's
 * repeated views.
 */

const SLOTS = ['nonce', 'email', 'username', 'formKey'] as const;
type Slot = (typeof SLOTS)[number];

/** Placeholders: letters and digits only, so every encoding on the page (HTML, JSON, JS) leaves them as they are. */
const PLACEHOLDERS: Record<Slot, string> = {
  nonce: `pn${randomBytes(12).toString('hex')}x`,
  email: `pe${randomBytes(12).toString('hex')}x`,
  username: `pu${randomBytes(12).toString('hex')}x`,
  formKey: `pk${randomBytes(12).toString('hex')}x`,
};
const PLACEHOLDER_PATTERN = new RegExp(SLOTS.map((slot) => PLACEHOLDERS[slot]).join('|'), 'g');
const SLOT_OF = new Map(SLOTS.map((slot) => [PLACEHOLDERS[slot], slot]));

/** Values that read the same in HTML text, attributes, JSON and a script: anything else is rendered live. */
const PLAIN_VALUE = /^[A-Za-z0-9._%+@-]{1,254}$/;

/** Pages that show the cart's lines: their key has the cart's signature (cartSignature). */
const CART_PATHS = new Set(['/cart', '/checkout']);

type Template = {
  /** The page between placeholders: parts.length === slots.length + 1. */
  parts: Buffer[];
  compressed: Buffer[];
  slots: Slot[];
  /** Headers the render set (content type, the route's own), sent again with each copy. */
  headers: [string, string][];
  /** The page's x-page-cache-* values: which post or product it shows, for the view counter. */
  meta: Record<string, string>;
  version: number;
  storedAt: number;
};

const MAX_BYTES = 16 * 1024 * 1024;

export class SessionPageTemplates {
  private readonly entries = new ByteLru<Template>(MAX_BYTES, (t) =>
    [...t.parts, ...t.compressed].reduce((sum, part) => sum + part.length, 0),
  );
  /** Keys being rendered as templates right now: other requests for them render live meanwhile. */
  private readonly filling = new Set<string>();

  private readonly pages: PageCache;

  constructor(pages: PageCache) {
    this.pages = pages;
  }

  get enabled(): boolean {
    return this.pages.enabled;
  }

  get(key: string): Template | undefined {
    const template = this.entries.get(key);
    if (template && !this.pages.isCurrent(template.version, template.storedAt)) {
      this.entries.delete(key);
      return undefined;
    }
    return template;
  }

  startFill(key: string): boolean {
    if (this.filling.has(key)) return false;
    this.filling.add(key);
    return true;
  }

  endFill(key: string): void {
    this.filling.delete(key);
  }

  set(key: string, template: Template): void {
    if (this.pages.isCurrent(template.version, template.storedAt)) this.entries.set(key, template);
  }

  get version(): number {
    return this.pages.currentVersion();
  }
}

/** The cookies a templated page may come with: any other (a toast, say) changes the page. */
const TEMPLATE_COOKIES = new Set([SESSION_COOKIE, 'theme']);

function onlyTemplateCookies(header: string | undefined): boolean {
  if (!header) return true;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (name && !TEMPLATE_COOKIES.has(name)) return false;
  }
  return true;
}

/** The visitor's values for the slots, or null when this request must be rendered live. */
type VisitorValues = Omit<Record<Slot, string>, 'formKey'>;

function slotValuesOf(state: RequestState): VisitorValues | null {
  const user = state.session.user;
  if (!user) return { nonce: state.nonce, email: '', username: '' };
  if (!PLAIN_VALUE.test(user.email)) return null;
  if (user.username !== null && !PLAIN_VALUE.test(user.username)) return null;
  return { nonce: state.nonce, email: user.email, username: user.username ?? '' };
}

/** A page's own document: not its data request (`.data`), not a path with a trailing slash. */
const DOCUMENT_PATH = /^\/(?:[^/]+(?:\/[^/]+)*)?$/;

/** What the page depends on besides its URL and theme, or null when it is not templated. */
async function shapeOf(ctx: Context, db: AppServices['db'], build: ServerBuild): Promise<string | null> {
  if (ctx.method !== 'GET' || !DOCUMENT_PATH.test(ctx.path) || ctx.path.endsWith('.data')) return null;
  if (!pageRouteOf(build, ctx.path).sessionTemplate) return null;
  const session = ctx.state.session as RequestState['session'];
  if (session.via !== 'cookie' || session.twoFactorSetupDue || session.cartCount === null) return null;
  if (!onlyTemplateCookies(ctx.get('cookie'))) return null;
  const user = session.user;
  // The reader's access (signed in, paid tier) decides what a gated post shows: part of the key.
  const who = user
    ? `${user.role === 'admin' ? 'a' : 'u'}${user.username === null ? 'n' : ''}${accessKey(readerAccess(user))}`
    : 'g';
  if (!CART_PATHS.has(ctx.path)) return `${who}${session.cartCount}`;
  const cart = await cartSignature(db, cartOwnerOf(ctx.state));
  return cart === null ? null : `${who}[${cart}]`;
}

function templateOf(
  page: Buffer,
  headers: [string, string][],
  meta: Record<string, string>,
  version: number,
): Template {
  const text = page.toString('utf8');
  const parts: Buffer[] = [];
  const slots: Slot[] = [];
  let from = 0;
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) {
    const slot = SLOT_OF.get(match[0]);
    if (slot === undefined) continue;
    parts.push(Buffer.from(text.slice(from, match.index)));
    slots.push(slot);
    from = match.index + match[0].length;
  }
  parts.push(Buffer.from(text.slice(from)));
  return { parts, compressed: parts.map(compressPart), slots, headers, meta, version, storedAt: Date.now() };
}

/** Sends a template with this visitor's values: gzip spliced from the compressed parts, or plain. */
function sendTemplate(ctx: Context, template: Template, visitor: VisitorValues): void {
  for (const [name, value] of template.headers) ctx.set(name, value);
  ctx.state.pageMeta = template.meta;
  ctx.vary('Accept-Encoding');
  // One new form key per response, the same wherever the page repeats it (form and hydration data).
  const values = { ...visitor, formKey: template.slots.includes('formKey') ? randomUUID() : '' };
  const filled = template.slots.map((slot) => Buffer.from(values[slot]));
  if (storedEncoding(ctx, 'gzip') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = splicedGzip(template.parts, template.compressed, filled);
    return;
  }
  ctx.body = Buffer.concat(
    template.parts.flatMap((part, i) => (i < filled.length ? [part, filled[i]] : [part])),
  );
}

/** Made for each copy as it is sent. */
const BODY_HEADERS = new Set(['content-length', 'content-encoding']);

/** The response's headers as they are now, but cookies (a template never carries one). */
function headerSnapshot(ctx: Context): Map<string, string> {
  const snapshot = new Map<string, string>();
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (name !== 'set-cookie') snapshot.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return snapshot;
}

/**
 * Sends pages for sessions from their templates; renders a missing one with placeholders, keeps
 * it when it is a whole 200 page that set no cookie, and answers this request from it too.
 */
export function sessionPageTemplates(
  services: AppServices,
  getBuild: () => Promise<ServerBuild>,
): Middleware {
  const templates = new SessionPageTemplates(services.pageCache);
  return async (ctx, next) => {
    const shape = templates.enabled ? await shapeOf(ctx, services.db, await getBuild()) : null;
    const values = shape ? slotValuesOf(ctx.state) : null;
    if (!shape || !values) return next();
    const key = `${shape}|${ctx.state.theme}|${ctx.url}`;
    const template = templates.get(key);
    if (template) {
      ctx.set('X-Cache', 'TEMPLATE');
      return sendTemplate(ctx, template, values);
    }
    if (!templates.startFill(key)) return next();
    try {
      await renderTemplate(ctx, next, key, values, templates);
    } finally {
      templates.endFill(key);
    }
  };
}

async function renderTemplate(
  ctx: Context,
  next: () => Promise<unknown>,
  key: string,
  values: VisitorValues,
  templates: SessionPageTemplates,
): Promise<void> {
  const state = ctx.state as RequestState;
  const session = state.session;
  const version = templates.version;
  const cookiesBefore = String(ctx.response.get('set-cookie'));
  const before = headerSnapshot(ctx);
  state.nonce = PLACEHOLDERS.nonce;
  state.templateSlots = { formKey: PLACEHOLDERS.formKey };
  const read = new Set<string>();
  state.session = watchedSession(
    {
      ...session,
      user: session.user && {
        ...session.user,
        email: PLACEHOLDERS.email,
        username: session.user.username === null ? null : PLACEHOLDERS.username,
      },
    },
    read,
  );
  try {
    await next();
  } finally {
    state.session = session;
    state.nonce = values.nonce;
    state.templateSlots = undefined;
  }
  const body = ctx.body;
  if (!Buffer.isBuffer(body) && !(body instanceof Readable)) return;
  // Read whole: the placeholders are replaced in every answer, kept or not (a 404 page has them too).
  const page = Buffer.isBuffer(body) ? body : await buffer(body);
  const headers = [...headerSnapshot(ctx)].filter(
    ([name, value]) => before.get(name) !== value && !BODY_HEADERS.has(name),
  );
  const made = templateOf(page, headers, { ...(state.pageMeta ?? {}) }, version);
  const storable =
    ctx.status === 200 &&
    String(ctx.response.get('content-type')).startsWith('text/html') &&
    String(ctx.response.get('set-cookie')) === cookiesBefore &&
    // A value of the visitor's that reached the page without its placeholder: never shared.
    !leaksVisitor(page, session) &&
    readsOnlyTemplated(state, ctx.path, read);
  if (storable) templates.set(key, made);
  sendTemplate(ctx, made, values);
}

/** What a templated render may read of the session: the root's slots, and a cart page's cart. */
const TEMPLATE_READS = new Set(['user', 'cartCount']);
const CART_PAGE_READS = new Set(['user', 'cartCount', 'id']);

/** The session as a templated render sees it, noting each property read. */
function watchedSession(session: RequestState['session'], read: Set<string>): RequestState['session'] {
  return new Proxy(session, {
    get(target, property, receiver) {
      if (typeof property === 'string') read.add(property);
      return Reflect.get(target, property, receiver);
    },
  });
}

/** Whether the render read only what its template's key and slots stand for; else it is not kept, and said. */
function readsOnlyTemplated(state: RequestState, path: string, read: Set<string>): boolean {
  const allowed = CART_PATHS.has(path) ? CART_PAGE_READS : TEMPLATE_READS;
  const beyond = [...read].filter((property) => !allowed.has(property));
  if (beyond.length) state.log.error({ path, read: beyond }, 'a templated page read the session: not kept');
  return beyond.length === 0;
}

function leaksVisitor(page: Buffer, session: RequestState['session']): boolean {
  // The username is left out: it is a common word as often as not, and shown on author pages.
  const own = [session.id, session.user?.email].filter((v): v is string => Boolean(v));
  return own.some((value) => page.includes(value));
}
