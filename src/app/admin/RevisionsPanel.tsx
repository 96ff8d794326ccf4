import { diffWords } from 'diff';
import { useEffect, useState } from 'react';
import type { EditablePost } from '../../blog/post-editor.ts';
import type { PostRevision } from '../../blog/post-revisions.ts';
import { Notice } from './Notice.tsx';

const KIND_LABELS: Record<PostRevision['kind'], string> = {
  save: 'Saved',
  publish: 'Published',
  autosave: 'Autosaved',
  restore: 'Restored',
};

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function byWhom(author: PostRevision['author']): string {
  return [author.firstName, author.lastName].filter(Boolean).join(' ') || author.username || 'Unknown';
}

/** Word-level changes from a revision to the editor's text: what a restore would take back. */
function WordDiff({ from, to }: { from: string; to: string }) {
  return (
    <p className="revision-diff">
      {diffWords(from, to).map((part, i) => {
        // Parts have no identity of their own; their order is fixed for a given pair of texts.
        const key = `${i}`;
        if (part.added) return <ins key={key}>{part.value}</ins>;
        if (part.removed) return <del key={key}>{part.value}</del>;
        return <span key={key}>{part.value}</span>;
      })}
    </p>
  );
}

type Props = {
  postId: number;
  version: number;
  /** The editor's text now, for the diff. */
  current: () => { title: string; content: string };
  onRestored: (post: EditablePost) => void;
};

/**
 * The post's revisions, newest first; one opened shows its diff against the editor and Restore.
 * The editor remounts it (key) when the post's version moves on, so the list is fetched anew.
 */
export function RevisionsPanel({ postId, version, current, onRestored }: Props) {
  const [revisions, setRevisions] = useState<PostRevision[] | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    fetch(`/api/posts/${postId}/revisions`)
      .then(async (res) => {
        const body = await res.json();
        if (!live) return;
        if (res.ok) setRevisions(body.revisions);
        else setProblem(body.message);
      })
      .catch(() => live && setProblem('Could not load the revisions'));
    return () => {
      live = false;
    };
  }, [postId]);

  const restore = async (revision: PostRevision) => {
    setBusy(true);
    setProblem(null);
    try {
      const res = await fetch(`/api/posts/${postId}/revisions/${revision.id}?action=restore`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ baseVersion: version }),
      });
      const body = await res.json();
      if (!res.ok) setProblem(body.message);
      else {
        setOpenId(null);
        onRestored(body.post);
      }
    } catch {
      setProblem('Could not restore the revision');
    } finally {
      setBusy(false);
    }
  };

  const now = current();
  return (
    <section id="post-revisions" className="card revisions" aria-label="Revisions">
      <h2>Revisions</h2>
      <Notice result={problem ? { ok: false, title: 'Error', message: problem } : null} />
      {revisions === null ? (
        <p className="muted">Loading revisions…</p>
      ) : revisions.length === 0 ? (
        <p className="muted">No revisions yet.</p>
      ) : (
        <ol className="revision-list">
          {revisions.map((revision) => (
            <li key={revision.id}>
              <button
                type="button"
                className="revision-toggle"
                aria-expanded={openId === revision.id}
                onClick={() => setOpenId((id) => (id === revision.id ? null : revision.id))}
              >
                {KIND_LABELS[revision.kind]} {when(revision.savedAt)} by {byWhom(revision.author)}
              </button>
              {openId === revision.id ? (
                <div className="revision-detail">
                  <p className="muted">Changes from this revision to the editor now:</p>
                  <WordDiff from={revision.title} to={now.title} />
                  <WordDiff from={revision.content} to={now.content} />
                  <button
                    type="button"
                    className="button button-small"
                    disabled={busy}
                    onClick={() => void restore(revision)}
                  >
                    Restore
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
