import { useState } from 'react';
import { Notice } from './Notice.tsx';

type Link = { url: string; expiresAt: string };

/**
 * The preview link's state, held above the editor's form: restoring a revision remounts the form
 * (and the settings panel where the link is shown), and the link must survive that.
 */
export function useSharePreview(postId: number | null) {
  const [link, setLink] = useState<Link | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; title: string; message?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const call = async (method: 'POST' | 'DELETE') => {
    if (postId === null) return;
    setBusy(true);
    setNotice(null);
    try {
      const res = await fetch(`/api/posts/${postId}/preview-link`, { method });
      const body = await res.json();
      if (!res.ok) setNotice({ ok: false, title: 'Error', message: body.message });
      else if (method === 'POST') setLink(body);
      else {
        setLink(null);
        setNotice({ ok: true, title: body.message });
      }
    } catch {
      setNotice({ ok: false, title: 'Error', message: 'Could not reach the server' });
    } finally {
      setBusy(false);
    }
  };

  return { link, notice, busy, call };
}

/** 'Share preview': a secret link to the post as saved, for 14 days or until revoked. */
export function SharePreview({ share }: { share: ReturnType<typeof useSharePreview> }) {
  const { link, notice, busy, call } = share;
  return (
    <section className="editor-share" aria-label="Share preview">
      <div className="admin-actions">
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={busy}
          onClick={() => void call('POST')}
        >
          {link ? 'New preview link' : 'Share preview'}
        </button>
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={busy}
          onClick={() => void call('DELETE')}
        >
          Revoke preview link
        </button>
      </div>
      {link ? (
        <div className="field">
          <label htmlFor="preview-url">Preview link (shows the post as last saved)</label>
          <input
            id="preview-url"
            readOnly
            value={link.url}
            aria-describedby="preview-url-hint"
            onFocus={(e) => e.target.select()}
            // It sits in the post's form (the settings panel): Enter here must not save the post.
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault();
            }}
          />
          <p id="preview-url-hint" className="muted">
            Anyone with this link can read the post until{' '}
            {new Date(link.expiresAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}. A new link
            replaces this one.
          </p>
        </div>
      ) : null}
      <Notice result={notice} />
    </section>
  );
}
