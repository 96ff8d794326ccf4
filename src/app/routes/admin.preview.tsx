import { renderMarkdown } from '../../blog/markdown.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import type { Route } from './+types/admin.preview';

const MAX_PREVIEW_CHARS = 200_000;

/** The editor's live preview: the same renderMarkdown (and sanitizer) as the public page. */
export async function action({ context, request }: Route.ActionArgs) {
  requireAdminUser(context, request);
  const content = String((await request.formData()).get('content') ?? '').slice(0, MAX_PREVIEW_CHARS);
  return { html: renderMarkdown(content) };
}
