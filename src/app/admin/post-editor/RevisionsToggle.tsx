import type { EditablePost } from '../../../blog/post-editor.ts';
import { RevisionsPanel } from '../RevisionsPanel.tsx';

type Props = {
  /** Held above the editor's form, which a restore remounts: the panel stays open through it. */
  open: boolean;
  setOpen: (open: boolean) => void;
  postId: number;
  version: number;
  current: () => { title: string; content: string };
  onRestored: (restored: EditablePost) => void;
};

/** The Revisions panel, opened on demand. */
export function RevisionsToggle({ open, setOpen, postId, version, current, onRestored }: Props) {
  return (
    <div className="editor-revisions">
      <button
        type="button"
        className="button button-small button-secondary"
        aria-expanded={open}
        aria-controls="post-revisions"
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide Revisions' : 'Revisions'}
      </button>
      {open ? (
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
