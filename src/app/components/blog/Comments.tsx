import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import type { CommentPage, PublicComment } from '../../../blog/comments.ts';
import { BLOG_MESSAGES, COMMENT_LIMITS } from '../../../blog/messages.ts';
import { formatDate } from '../../../blog/reading.ts';
import { useFocusFirstError } from '../FormErrors.tsx';

export type CommentValues = { author: string; email: string; content: string; notify: boolean };

/**
 * The action's answer; `formToken` is the one of the first render, kept through re-renders;
 * `replyTo` the comment a reply form answered (absent for the main form), whose form shows it.
 */
export type CommentResult =
  | { ok: true; title: string; description: string; formToken?: string; replyTo?: number }
  | {
      ok: false;
      title: string;
      description: string;
      values?: CommentValues;
      formToken?: string;
      replyTo?: number;
      /** The field the refusal is about, when it is about one. */
      field?: string;
    };

function LikeButton({ comment }: { comment: PublicComment }) {
  const fetcher = useFetcher<{ likes?: number }>();
  const likes = fetcher.data?.likes ?? comment.likes;
  // Sent as a plain form (no JavaScript, or a page that does not hydrate), the answer opens at the comment.
  const { pathname } = useLocation();
  return (
    <fetcher.Form method="post" action={`${pathname}#comment-${comment.id}`} className="like-form">
      <input type="hidden" name="intent" value="like" />
      <input type="hidden" name="commentId" value={comment.id} />
      <button
        type="submit"
        className="button button-small button-secondary"
        aria-label={`Like the comment by ${comment.author} (${likes} likes)`}
      >
        ♥ {likes}
      </button>
    </fetcher.Form>
  );
}

/** The query of a page of comments with the reply form open under one of them. */
function replyQuery(pageQuery: string, id: number): string {
  const query = new URLSearchParams(pageQuery);
  query.set('replyTo', String(id));
  return `?${query}`;
}

/**
 * The main form, or a reply form: under the answered comment (`parent`), or with no parent in the
 * plain page's template, which its script copies under a comment when 'Reply' is clicked.
 */
function CommentForm({
  postId,
  formToken,
  result,
  parent,
  pageQuery,
}: {
  postId: number;
  formToken: string;
  result: CommentResult | undefined;
  /** Absent for the main form; null in the template. */
  parent?: { id: number; author: string } | null;
  pageQuery: string;
}) {
  const fetcher = useFetcher<CommentResult>();
  const form = useRef<HTMLFormElement>(null);
  const shown = fetcher.data ?? result;
  const refused = shown && !shown.ok ? shown : undefined;
  const refusedValues = refused?.values;
  useFocusFirstError(form, refused);
  const reply = parent !== undefined;
  const prefix = reply ? 'reply' : 'comment';
  const statusId = `${prefix}-status`;
  // The field a refusal is about is marked, and described by the refusal's message.
  const invalid = (name: keyof CommentValues, hint?: string) => ({
    'aria-invalid': refused?.field === name ? true : undefined,
    'aria-describedby': [hint, refused?.field === name && statusId].filter(Boolean).join(' ') || undefined,
  });
  // The token of the first render: a revalidation after a refusal must not restart the clock.
  const [firstToken] = useState(formToken);
  // Sent as a plain form, the answer opens at the form, where its result is shown.
  const { pathname } = useLocation();
  const action = parent
    ? `${pathname}${replyQuery(pageQuery, parent.id)}#reply-${parent.id}`
    : `${pathname}${pageQuery ? `?${pageQuery}` : ''}#leave-comment`;
  useEffect(() => {
    if (fetcher.data?.ok) form.current?.reset();
  }, [fetcher.data]);
  return (
    <div
      className={reply ? 'comment-form reply-form card' : 'comment-form card'}
      id={parent ? `reply-${parent.id}` : reply ? undefined : 'leave-comment'}
    >
      <h3>{reply ? `Reply to ${parent?.author ?? ''}` : 'Leave a comment'}</h3>
      <fetcher.Form method="post" action={action} ref={form} noValidate>
        <input type="hidden" name="intent" value="comment" />
        <input type="hidden" name="postId" value={postId} />
        {reply && <input type="hidden" name="parentId" value={parent?.id ?? ''} />}
        <input type="hidden" name="formToken" value={shown?.formToken ?? firstToken} />
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={`${prefix}-website`}>Leave this empty</label>
          <input id={`${prefix}-website`} name="website" tabIndex={-1} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-author`}>Name</label>
          <input
            id={`${prefix}-author`}
            name="author"
            autoComplete="name"
            defaultValue={refusedValues?.author}
            maxLength={COMMENT_LIMITS.author}
            required
            {...invalid('author')}
          />
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-email`}>Email</label>
          <input
            id={`${prefix}-email`}
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={refusedValues?.email}
            maxLength={COMMENT_LIMITS.email}
            required
            {...invalid('email', `${prefix}-email-hint`)}
          />
          <p id={`${prefix}-email-hint`} className="muted field-hint">
            Your email is never published.
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-content`}>{reply ? 'Reply' : 'Comment'}</label>
          <textarea
            id={`${prefix}-content`}
            name="content"
            rows={reply ? 4 : 5}
            defaultValue={refusedValues?.content}
            maxLength={COMMENT_LIMITS.content}
            required
            {...invalid('content')}
          />
        </div>
        <div className="field field-check">
          <input
            id={`${prefix}-notify`}
            name="notify"
            type="checkbox"
            defaultChecked={refusedValues?.notify}
          />
          <label htmlFor={`${prefix}-notify`}>{BLOG_MESSAGES.notifyLabel}</label>
        </div>
        <div aria-live="polite">
          {shown && (
            <div
              id={statusId}
              className={shown.ok ? 'form-status success' : 'form-status error'}
              role={shown.ok ? 'status' : 'alert'}
            >
              <strong>{shown.title}</strong> {shown.description}
            </div>
          )}
        </div>
        <div className="comment-form-actions">
          <button type="submit" className="button" disabled={fetcher.state !== 'idle'}>
            {fetcher.state !== 'idle' ? 'Posting...' : reply ? 'Post Reply' : 'Post Comment'}
          </button>
          {reply && (
            <a
              className="reply-cancel"
              href={`${pathname}${pageQuery ? `?${pageQuery}` : ''}#${parent ? `comment-${parent.id}` : 'comments-heading'}`}
            >
              Cancel
            </a>
          )}
        </div>
      </fetcher.Form>
    </div>
  );
}

type FormProps = { postId: number; formToken: string; result: CommentResult | undefined; pageQuery: string };

/** One comment; its reply form when the page was opened to answer it (?replyTo=, or a reply sent). */
function CommentItem({
  comment,
  replyTo,
  form,
  children,
}: {
  comment: PublicComment;
  replyTo: number | null;
  form: FormProps;
  children?: ReactNode;
}) {
  const answering = replyTo === comment.id;
  return (
    <li id={`comment-${comment.id}`} className={comment.parentId ? 'comment comment-reply' : 'comment'}>
      <p className="comment-meta">
        <strong>{comment.author}</strong>
        {comment.byAuthor && <span className="badge comment-author-mark">{BLOG_MESSAGES.authorMark}</span>}{' '}
        <time className="muted" dateTime={comment.createdAt}>
          {formatDate(comment.createdAt)}
        </time>
      </p>
      <p className="comment-content">{comment.content}</p>
      <div className="comment-actions">
        <LikeButton comment={comment} />
        <Link
          className="reply-link"
          to={`${replyQuery(form.pageQuery, comment.id)}#reply-${comment.id}`}
          preventScrollReset
          // A page per comment for crawlers to follow would add nothing to read.
          rel="nofollow"
          data-reply-to={comment.id}
          data-reply-heading={`Reply to ${comment.author}`}
          aria-label={`Reply to ${comment.author}`}
        >
          Reply
        </Link>
      </div>
      {children}
      {answering && (
        <CommentForm
          {...form}
          parent={{ id: comment.id, author: comment.author }}
          result={form.result?.replyTo === comment.id ? form.result : undefined}
        />
      )}
    </li>
  );
}

/** One page of comments; older pages are plain links (?comments=<before id>), so they work without JavaScript. */
function CommentList({
  page,
  paged,
  replyTo,
  form,
}: {
  page: CommentPage;
  paged: boolean;
  replyTo: number | null;
  form: FormProps;
}) {
  const { comments, total, nextBefore } = page;
  return (
    <>
      <h2 id="comments-heading">Comments ({total})</h2>
      {comments.length === 0 ? (
        <p className="muted">No comments yet. Be the first to share your thoughts.</p>
      ) : (
        <ul className="comment-list">
          {comments.map((comment) => (
            <CommentItem key={comment.id} comment={comment} replyTo={replyTo} form={form}>
              {comment.replies.length > 0 && (
                <ul className="comment-replies" aria-label={`Replies to ${comment.author}`}>
                  {comment.replies.map((reply) => (
                    <CommentItem key={reply.id} comment={reply} replyTo={replyTo} form={form} />
                  ))}
                </ul>
              )}
            </CommentItem>
          ))}
        </ul>
      )}
      {(paged || nextBefore !== null) && (
        <nav className="comment-pages" aria-label="Comment pages">
          {paged && (
            <Link to="?#comments-heading" preventScrollReset>
              Newest comments
            </Link>
          )}
          {nextBefore !== null && (
            <Link to={`?comments=${nextBefore}#comments-heading`} preventScrollReset>
              Older comments
            </Link>
          )}
        </nav>
      )}
    </>
  );
}

/**
 * Approved comments, their replies, and the form for a new one. The comments are rendered in
 * place, never streamed in behind a script: the page is whole for readers and clients without
 * JavaScript. 'Reply' is a link (?replyTo=<id>#reply-<id>) that renders the reply form under the
 * comment; on the plain page its script opens the same form in place, from a template.
 */
export function Comments({
  postId,
  comments,
  paged,
  pageQuery,
  replyTo,
  formToken,
  result,
}: {
  postId: number;
  comments: CommentPage;
  /** True when showing an older page (not the newest comments). */
  paged: boolean;
  /** The page's comments query (`comments=<before>`, or ''), kept by the reply links. */
  pageQuery: string;
  /** The comment whose reply form is open. */
  replyTo: number | null;
  formToken: string;
  result: CommentResult | undefined;
}) {
  // A page rendered for a refused comment: every form on it (the reply template too) keeps the
  // token of the first render the reader saw, so the time trap does not restart.
  const form: FormProps = { postId, formToken: result?.formToken ?? formToken, result, pageQuery };
  // A reply's answer goes back to its form under the comment; to the main form when that comment is gone.
  const shownIds = new Set(comments.comments.flatMap((c) => [c.id, ...c.replies.map((r) => r.id)]));
  const replyFormShown = result?.replyTo !== undefined && result.replyTo === replyTo && shownIds.has(replyTo);
  // Rendered on the server only: the plain page has no React, and its script copies this form.
  const plain = typeof document === 'undefined';
  return (
    <section className="comments" aria-labelledby="comments-heading">
      <CommentList page={comments} paged={paged} replyTo={replyTo} form={form} />
      {plain && (
        <template id="reply-template">
          <CommentForm {...form} parent={null} result={undefined} />
        </template>
      )}
      <CommentForm {...form} result={replyFormShown ? undefined : result} />
    </section>
  );
}
