import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';

/** The live preview: re-rendered on the server (same sanitizer) shortly after typing stops. */
export function PostPreview({ content }: { content: string }) {
  const preview = useFetcher<{ html: string }>();
  const [showPreview, setShowPreview] = useState(false);
  const submitPreview = preview.submit;
  useEffect(() => {
    if (!showPreview) return;
    const timer = setTimeout(
      () => submitPreview({ content }, { method: 'post', action: '/admin/preview' }),
      300,
    );
    return () => clearTimeout(timer);
  }, [showPreview, content, submitPreview]);
  return (
    <>
      <button
        type="button"
        className="button button-small button-secondary"
        aria-expanded={showPreview}
        aria-controls="post-preview"
        onClick={() => setShowPreview((v) => !v)}
      >
        {showPreview ? 'Hide Preview' : 'Preview'}
      </button>
      {showPreview ? (
        <section
          id="post-preview"
          className="card editor-preview"
          aria-label="Preview"
          aria-busy={preview.state !== 'idle'}
        >
          {preview.data ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server by renderMarkdown, as on the public page
            <div className="prose" dangerouslySetInnerHTML={{ __html: preview.data.html }} />
          ) : (
            <p className="muted">Rendering preview…</p>
          )}
        </section>
      ) : null}
    </>
  );
}
