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
});

export type CommentInput = z.infer<typeof commentSchema>;

/** The toast title that goes with a validation message. */
export function commentErrorTitle(message: string): string {
  if (message === BLOG_MESSAGES.missingInfo.description) return BLOG_MESSAGES.missingInfo.title;
  if (message === BLOG_MESSAGES.invalidEmail.description) return BLOG_MESSAGES.invalidEmail.title;
  return 'Error';
}
