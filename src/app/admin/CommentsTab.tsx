import { useEffect, useRef, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import { MODERATION_MESSAGES as M } from '../../blog/comment-moderation-messages.ts';
import { BLOG_MESSAGES, COMMENT_LIMITS } from '../../blog/messages.ts';
import {
  COMMENT_STATUS_FILTERS,
  type CommentStatusFilter,
  type ModerationComment,
  type ModerationDecision,
} from '../../blog/moderation.ts';
import { AdminFilters, AdminItems, AdminPages, DeleteItem } from './AdminList.tsx';
import type { ActionResult } from './admin-actions.server.ts';
import { formatDate } from './format.ts';

type Filters = { view: 'pending' | 'all'; q: string; status: CommentStatusFilter; page: number };
type Props = {
  counts: { total: number; pending: number; approved: number; rejected: number };
  comments: ModerationComment[];
  pagination: { page: number; limit: number; total: number; pages: number };
  filters: Filters;
};

function ModerateButton({
  comment,
  decision,
  label,
}: {
  comment: ModerationComment;
  decision: ModerationDecision;
  label: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="moderate" />
      <input type="hidden" name="id" value={comment.id} />
      <input type="hidden" name="decision" value={decision} />
      <button
        className={decision === 'approve' ? 'button button-small' : 'button button-small button-secondary'}
        type="submit"
      >
        {label}
        <span className="visually-hidden"> comment by {comment.author}</span>
      </button>
    </Form>
  );
}

/** The admin's answer, published at once; a native disclosure, so it opens without JavaScript too. */
function ModerationReply({ comment }: { comment: ModerationComment }) {
  const fieldId = `moderation-reply-${comment.id}`;
  const details = useRef<HTMLDetailsElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const result = useActionData<ActionResult>();
  // This form's submission in flight; once it ends published, the form closes empty, so the same
  // answer is not sent twice.
  const ours =
    navigation.formData?.get('intent') === 'reply-comment' &&
    navigation.formData.get('id') === String(comment.id);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    if (ours) setWaiting(true);
  }, [ours]);
  useEffect(() => {
    if (!waiting || navigation.state !== 'idle') return;
    setWaiting(false);
    if (!result?.ok) return;
    form.current?.reset();
    if (details.current) details.current.open = false;
  }, [waiting, navigation.state, result]);
  return (
    <details className="moderation-reply" ref={details}>
      <summary>
        {M.replyTo(comment.author)}
        {!comment.approved && ' (approves the comment)'}
      </summary>
      <Form method="post" ref={form}>
        <input type="hidden" name="intent" value="reply-comment" />
        <input type="hidden" name="id" value={comment.id} />
        <div className="field">
          <label htmlFor={fieldId}>Your reply</label>
          <textarea id={fieldId} name="content" rows={3} maxLength={COMMENT_LIMITS.content} required />
        </div>
        <button className="button button-small" type="submit">
          Publish reply<span className="visually-hidden"> to {comment.author}</span>
        </button>
      </Form>
    </details>
  );
}

function CommentCard({ comment }: { comment: ModerationComment }) {
  const navigation = useNavigation();
  const busy = navigation.formData?.get('id') === String(comment.id);
  return (
    <li className="card admin-item" aria-busy={busy}>
      <div className="admin-item-head">
        <h3>{comment.author}</h3>
        <span
          className={
            comment.approved
              ? 'badge badge-published'
              : comment.rejected
                ? 'badge badge-draft'
                : 'badge badge-pending'
          }
        >
          {comment.approved ? 'Approved' : comment.rejected ? 'Rejected' : 'Pending'}
        </span>
      </div>
      <p className="muted admin-meta">
        <span>{comment.email}</span>
        <span>{formatDate(comment.createdAt)}</span>
        <span>On “{comment.post.title}”</span>
        {comment.replyTo && (
          <a href={`/post/${comment.postId}#comment-${comment.replyTo.id}`} target="_blank" rel="noreferrer">
            {M.replyTo(comment.replyTo.author)}
          </a>
        )}
        {comment.byAuthor && <span className="badge">{BLOG_MESSAGES.authorMark}</span>}
      </p>
      {comment.heldReason && <p className="field-error">Suspected spam: {comment.heldReason}</p>}
      <p className="admin-comment-content">{comment.content}</p>
      <div className="admin-actions">
        {comment.approved ? (
          <ModerateButton comment={comment} decision="pending" label="Unapprove" />
        ) : comment.rejected ? (
          <ModerateButton comment={comment} decision="approve" label="Approve" />
        ) : (
          <>
            <ModerateButton comment={comment} decision="approve" label="Approve" />
            <ModerateButton comment={comment} decision="reject" label="Reject" />
          </>
        )}
        <a
          className="button button-small button-secondary"
          href={`/post/${comment.postId}#comment-${comment.id}`}
          target="_blank"
          rel="noreferrer"
        >
          View Post<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <DeleteItem
          intent="delete-comment"
          id={comment.id}
          confirm={M.confirmDelete(comment.author)}
          name={`comment by ${comment.author}`}
        />
      </div>
      {!comment.rejected && <ModerationReply comment={comment} />}
    </li>
  );
}

export function CommentsTab({ counts, comments, pagination, filters }: Props) {
  const pending = filters.view === 'pending';
  const filtered = filters.q !== '' || filters.status !== 'all';
  return (
    <div className="admin-stack">
      <div className="admin-cards admin-cards-3">
        <section className="card admin-stat" aria-labelledby="c-total">
          <h2 id="c-total">Total Comments</h2>
          <p className="admin-stat-value">{counts.total}</p>
        </section>
        <section className="card admin-stat" aria-labelledby="c-pending">
          <h2 id="c-pending">Pending Review</h2>
          <p className="admin-stat-value">{counts.pending}</p>
        </section>
        <section className="card admin-stat" aria-labelledby="c-approved">
          <h2 id="c-approved">Approved</h2>
          <p className="admin-stat-value">{counts.approved}</p>
        </section>
      </div>
      <nav className="admin-subtabs" aria-label="Comment lists">
        <Link
          to="/admin?tab=comments&view=pending"
          aria-current={filters.view === 'pending' ? 'page' : undefined}
          className={filters.view === 'pending' ? 'admin-subtab active' : 'admin-subtab'}
        >
          Pending ({counts.pending})
        </Link>
        <Link
          to="/admin?tab=comments&view=all"
          aria-current={filters.view === 'all' ? 'page' : undefined}
          className={filters.view === 'all' ? 'admin-subtab active' : 'admin-subtab'}
        >
          All Comments
        </Link>
      </nav>
      {filters.view === 'all' ? (
        <AdminFilters
          noun="comment"
          params={{ tab: 'comments', view: 'all' }}
          searches={[{ name: 'q', label: 'Search comments', value: filters.q }]}
          selects={[
            {
              name: 'status',
              label: 'Status',
              options: COMMENT_STATUS_FILTERS,
              labels: { rejected: `Rejected (${counts.rejected})` },
              value: filters.status,
            },
          ]}
        />
      ) : null}
      <AdminItems
        items={comments}
        empty={
          <div className="empty-state">
            <h2>{pending ? M.caughtUp : M.noneFound}</h2>
            <p>{pending ? M.noPending : filtered ? M.adjustFilters : M.noneYet}</p>
          </div>
        }
      >
        {(comment) => <CommentCard key={comment.id} comment={comment} />}
      </AdminItems>
      <AdminPages
        label="Comment pages"
        params={{ tab: 'comments', view: filters.view, q: filters.q, status: filters.status }}
        pagination={pagination}
      />
    </div>
  );
}
