import { z } from 'zod';
import { BLOG_MESSAGES, COMMENT_LIMITS } from './messages.ts';

const required = (max: number, label: string) =>
  z
    .string({ error: BLOG_MESSAGES.missingInfo.description })
    .trim()
    .min(1, BLOG_MESSAGES.missingInfo.description)
    .max(max, `${label} must be at most ${max} characters.`);

/** The comment form: one schema for the browser, the form action and POST /api/comments. */
export const commentSchema = z.object({
  postId: z.coerce.number({ error: 'postId must be a post id.' }).int().positive('postId must be a post id.'),
  author: required(COMMENT_LIMITS.author, 'Name'),
  email: required(COMMENT_LIMITS.email, 'Email').refine(
    (v) => v.includes('@'),
    BLOG_MESSAGES.invalidEmail.description,
  ),
  content: required(COMMENT_LIMITS.content, 'Comment'),
  /** The comment answered; a reply to a reply is shown under the same top-level comment. */
  parentId: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: BLOG_MESSAGES.replyParentInvalid })
      .int(BLOG_MESSAGES.replyParentInvalid)
      .positive(BLOG_MESSAGES.replyParentInvalid)
      .max(2 ** 31 - 1, BLOG_MESSAGES.replyParentInvalid)
      .optional(),
  ),
  /** 'Email me…' ticked: true from JSON, 'on' from a form's checkbox. */
  notify: z.preprocess(
    (v) => v === 'on' || v === 'true' || v,
    z.boolean({ error: 'notify must be true or false.' }).default(false),
  ),
});

export type CommentInput = z.infer<typeof commentSchema>;

/** The toast title that goes with a validation message. */
export function commentErrorTitle(message: string): string {
  if (message === BLOG_MESSAGES.missingInfo.description) return BLOG_MESSAGES.missingInfo.title;
  if (message === BLOG_MESSAGES.invalidEmail.description) return BLOG_MESSAGES.invalidEmail.title;
  return 'Error';
}
