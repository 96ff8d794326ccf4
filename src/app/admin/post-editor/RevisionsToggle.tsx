import { useState } from 'react';
import type { EditablePost } from '../../../blog/post-editor.ts';
import { RevisionsPanel } from '../RevisionsPanel.tsx';

type Props = {
  postId: number;
  version: number;
  current: () => { title: string; content: string };
  onRestored: (restored: EditablePost) => void;
};

/** The Revisions panel, opened on demand. */
export function RevisionsToggle({ postId, version, current, onRestored }: Props) {
  const [showRevisions, setShowRevisions] = useState(false);
  return (
    <div className="editor-revisions">
      <button
        type="button"
        className="button button-small button-secondary"
        aria-expanded={showRevisions}
        aria-controls="post-revisions"
        onClick={() => setShowRevisions((v) => !v)}
      >
        {showRevisions ? 'Hide Revisions' : 'Revisions'}
      </button>
      {showRevisions ? (
        <RevisionsPanel
          key={version}
          postId={postId}
          version={version}
          current={current}
          onRestored={onRestored}
        />
      ) : null}
    </div>
  );
}
