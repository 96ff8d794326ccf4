import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import type { CommentPage, PublicComment } from '../../../blog/comments.ts';
import { COMMENT_LIMITS } from '../../../blog/messages.ts';
import { formatDate } from '../../../blog/reading.ts';
import { useFocusFirstError } from '../FormErrors.tsx';

export type CommentValues = { author: string; email: string; content: string };

/** The action's answer; `formToken` is the one of the first render, kept through re-renders. */
export type CommentResult =
  | { ok: true; title: string; description: string; formToken?: string }
  | {
      ok: false;
      title: string;
      description: string;
      values?: CommentValues;
      formToken?: string;
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

/** One page of comments; older pages are plain links (?comments=<before id>), so they work without JavaScript. */
function CommentList({ page, paged }: { page: CommentPage; paged: boolean }) {
  const { comments, total, nextBefore } = page;
  return (
    <>
      <h2 id="comments-heading">Comments ({total})</h2>
      {comments.length === 0 ? (
        <p className="muted">No comments yet. Be the first to share your thoughts.</p>
      ) : (
        <ul className="comment-list">
          {comments.map((comment) => (
            <li key={comment.id} id={`comment-${comment.id}`} className="comment">
              <p className="comment-meta">
                <strong>{comment.author}</strong>{' '}
                <time className="muted" dateTime={comment.createdAt}>
                  {formatDate(comment.createdAt)}
                </time>
              </p>
              <p className="comment-content">{comment.content}</p>
              <LikeButton comment={comment} />
            </li>
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
 * Approved comments and the form for a new one. The comments are rendered in place, never
 * streamed in behind a script: the page is whole for readers and clients without JavaScript.
 */
export function Comments({
  postId,
  comments,
  paged,
  formToken,
  result,
}: {
  postId: number;
  comments: CommentPage;
  /** True when showing an older page (not the newest comments). */
  paged: boolean;
  formToken: string;
  result: CommentResult | undefined;
}) {
  const fetcher = useFetcher<CommentResult>();
  const form = useRef<HTMLFormElement>(null);
  const shown = fetcher.data ?? result;
  const refused = shown && !shown.ok ? shown : undefined;
  const refusedValues = refused?.values;
  useFocusFirstError(form, refused);
  // The field a refusal is about is marked, and described by the refusal's message.
  const invalid = (name: keyof CommentValues, hint?: string) => ({
    'aria-invalid': refused?.field === name ? true : undefined,
    'aria-describedby':
      [hint, refused?.field === name && 'comment-status'].filter(Boolean).join(' ') || undefined,
  });
  // The token of the first render: a revalidation after a refusal must not restart the clock.
  const [firstToken] = useState(formToken);
  // Sent as a plain form, the answer opens at the form, where its result is shown.
  const { pathname } = useLocation();
  useEffect(() => {
    if (fetcher.data?.ok) form.current?.reset();
  }, [fetcher.data]);
  return (
    <section className="comments" aria-labelledby="comments-heading">
      <CommentList page={comments} paged={paged} />
      <div className="comment-form card" id="leave-comment">
        <h3>Leave a comment</h3>
        <fetcher.Form method="post" action={`${pathname}#leave-comment`} ref={form} noValidate>
          <input type="hidden" name="intent" value="comment" />
          <input type="hidden" name="postId" value={postId} />
          <input type="hidden" name="formToken" value={shown?.formToken ?? firstToken} />
          <div className="honeypot" aria-hidden="true">
            <label htmlFor="comment-website">Leave this empty</label>
            <input id="comment-website" name="website" tabIndex={-1} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="comment-author">Name</label>
            <input
              id="comment-author"
              name="author"
              autoComplete="name"
              defaultValue={refusedValues?.author}
              maxLength={COMMENT_LIMITS.author}
              required
              {...invalid('author')}
            />
          </div>
          <div className="field">
            <label htmlFor="comment-email">Email</label>
            <input
              id="comment-email"
              name="email"
              type="email"
              autoComplete="email"
              defaultValue={refusedValues?.email}
              maxLength={COMMENT_LIMITS.email}
              required
              {...invalid('email', 'comment-email-hint')}
            />
            <p id="comment-email-hint" className="muted field-hint">
              Your email is never published.
            </p>
          </div>
          <div className="field">
            <label htmlFor="comment-content">Comment</label>
            <textarea
              id="comment-content"
              name="content"
              rows={5}
              defaultValue={refusedValues?.content}
              maxLength={COMMENT_LIMITS.content}
              required
              {...invalid('content')}
            />
          </div>
          <div aria-live="polite">
            {shown && (
              <div
                id="comment-status"
                className={shown.ok ? 'form-status success' : 'form-status error'}
                role={shown.ok ? 'status' : 'alert'}
              >
                <strong>{shown.title}</strong> {shown.description}
              </div>
            )}
          </div>
          <button type="submit" className="button" disabled={fetcher.state !== 'idle'}>
            {fetcher.state !== 'idle' ? 'Posting...' : 'Post Comment'}
          </button>
        </fetcher.Form>
      </div>
    </section>
  );
}
