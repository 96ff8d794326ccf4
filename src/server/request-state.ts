import type { RequestContext } from '../kernel/request.ts';

/** What middleware learns about a request; passed to API handlers and route loaders alike. */
export interface RequestState extends RequestContext {
  /** The CSP nonce every inline and framework script of this response carries. */
  nonce: string;
  /** The theme preference cookie: 'light', 'dark' or 'system'. */
  theme: 'light' | 'dark' | 'system';
  /** Set on a cacheable miss: the response is stored under this key (see page-cache.ts). */
  pageCache?: { key: string; version: number; refresh: boolean };
  /** Set once the response is being captured for the cache: storing it ends the fill. */
  pageCacheStoring?: boolean;
  /** A page's x-page-cache-* headers (stored or rendered): which post or product it shows. */
  pageMeta?: Record<string, string>;
  /** The Content-Type of a stored answer, whose headers went out in one writeHead (not readable back). */
  storedType?: string;
  /** The matched page route pattern, for metrics labels. */
  routePattern?: string;
  /** A page form's `intent` field, read with its body (the audit log names the action by it). */
  formIntent?: string | null;
  /**
   * What the request did, in the owner's words, set by the handler that knows its object ('Comment
   * approved: #12 by Ann on “Hello”'); `refused` with the reason when the answer refused it (a form
   * answers 200 with the refusal). The audit log records it instead of the method and path.
   */
  audit?: { what?: string; refused?: string };
  /** Set while a page is rendered as a template for sessions (session-templates.ts): its per-response values. */
  templateSlots?: { formKey: string };
  /** Set by an admin write that changes no page (an autosave): the page cache is kept. */
  pagesUnchanged?: boolean;
}
