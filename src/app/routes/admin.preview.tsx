import { redirect } from 'react-router';
import { renderMarkdown } from '../../blog/markdown.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import { getApp } from '../context.ts';
import { withProductCards } from '../product-cards.server.tsx';
import type { Route } from './+types/admin.preview';

const MAX_PREVIEW_CHARS = 200_000;

/** Only the editor posts here; a visit goes back to the admin area (through the same guard). */
export function loader({ context, request }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  return redirect('/admin?tab=posts');
}

/** The editor's live preview: the same renderMarkdown (and sanitizer) and product cards as the public page. */
export async function action({ context, request }: Route.ActionArgs) {
  requireAdminUser(context, request);
  const content = String((await request.formData()).get('content') ?? '').slice(0, MAX_PREVIEW_CHARS);
  // Products as readers will see them, and a warning where readers will see nothing.
  const { db, config } = getApp(context).services;
  return {
    html: await withProductCards(db, renderMarkdown(content), config.currency, { forEditor: true }),
  };
}
