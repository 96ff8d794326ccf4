import type { Db } from '../db/knex.ts';
import { Invalid, NotFound, RateLimited, type Refusal } from '../kernel/errors.ts';
import { rateLimit } from '../kernel/rate-limit.ts';
import type { RequestContext } from '../kernel/request.ts';
import { commentErrorTitle, commentSchema } from './comment-schema.ts';
import { checkFormToken, commentWriter, createComment } from './comments.ts';
import { BLOG_MESSAGES } from './messages.ts';

/**
 * The post page's answer to its comment form: the notice to show; on a refusal also its kind, the
 * field at fault and the form token to keep (none when the token itself was refused).
 */
export type CommentFormAnswer =
  | { ok: true; title: string; description: string }
  | { ok: false; refusal: Refusal; title: string; description: string; formToken?: string; field?: string };

/**
 * A reader's comment or reply from the post page's form, in the order a person meets the checks:
 * the fields, the form token (forged, or used faster than a person types), the address's limit,
 * then the comment stored. A filled hidden field is most likely a bot, but a person's autofill can
 * do it too: the comment is held for the moderator with the reason, never dropped.
 */
export async function postCommentForm(
  db: Db,
  state: Pick<RequestContext, 'clientIp' | 'session'>,
  fields: Record<string, unknown>,
): Promise<CommentFormAnswer> {
  const formToken = String(fields.formToken ?? '');
  const refuse = (refusal: Refusal, title: string, kept?: string, field?: string): CommentFormAnswer => ({
    ok: false,
    refusal,
    title,
    description: refusal.message,
    formToken: kept,
    field,
  });
  const parsed = commentSchema.safeParse(fields);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const kept = (await checkFormToken(db, formToken)) === 'invalid' ? undefined : formToken;
    return refuse(new Invalid(issue.message), commentErrorTitle(issue.message), kept, String(issue.path[0]));
  }
  const tokenCheck = await checkFormToken(db, formToken);
  if (tokenCheck === 'invalid')
    return refuse(new Invalid(BLOG_MESSAGES.commentFailed.description), BLOG_MESSAGES.commentFailed.title);
  if (tokenCheck === 'too-fast')
    return refuse(
      new Invalid(BLOG_MESSAGES.commentTooFast.description),
      BLOG_MESSAGES.commentTooFast.title,
      formToken,
    );
  try {
    await rateLimit(db, 'comments').consume(state.clientIp);
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return refuse(error, BLOG_MESSAGES.commentLimitedTitle, formToken);
  }
  const heldReason = String(fields.website ?? '') === '' ? null : BLOG_MESSAGES.honeypotReason;
  const created = await createComment(db, parsed.data, { heldReason, writer: commentWriter(state.session) });
  if (created === 'no-post')
    return refuse(new NotFound(BLOG_MESSAGES.commentFailed.description), BLOG_MESSAGES.commentFailed.title);
  if (created === 'no-parent')
    return refuse(
      new Invalid(BLOG_MESSAGES.replyParentMissing.description),
      BLOG_MESSAGES.replyParentMissing.title,
      formToken,
    );
  if (!parsed.data.parentId) return { ok: true, ...BLOG_MESSAGES.commentPending };
  return { ok: true, ...(created.approved ? BLOG_MESSAGES.replyPublished : BLOG_MESSAGES.replyPending) };
}
