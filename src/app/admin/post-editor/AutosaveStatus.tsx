import type { ReactNode } from 'react';
import { POST_MESSAGES } from '../../../blog/post-messages.ts';
import type { AutosaveState } from '../autosave.ts';
import { savedTime } from './fields.ts';

export function AutosaveStatus({ state, postId }: { state: AutosaveState; postId: number | null }) {
  let text: ReactNode = null;
  if (state.kind === 'saving') text = 'Saving…';
  else if (state.kind === 'saved')
    text = `Saved ${postId ? '' : 'in this browser '}at ${savedTime(state.at)}`;
  else if (state.kind === 'retrying') text = 'Not saved — retrying';
  else if (state.kind === 'conflict' && postId) text = <ConflictHelp postId={postId} />;
  return (
    <p className="muted autosave-status" role="status">
      {text}
    </p>
  );
}

/** Both versions stay reachable: the other one in a new tab, this one in the form. */
export function ConflictHelp({ postId }: { postId: number }) {
  return (
    <>
      <strong>{POST_MESSAGES.changedElsewhere}</strong>. Your text stays here;{' '}
      <a href={`/admin/posts/${postId}`} target="_blank" rel="noopener">
        open the saved version in a new tab
      </a>{' '}
      to compare.
    </>
  );
}
