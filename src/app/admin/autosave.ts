import { useCallback, useEffect, useRef, useState } from 'react';
import { type PostDraft, type PostInputRaw, postDraftSchema } from '../../blog/post-schema.ts';
import { postFromForm } from './post-form.ts';

export type AutosaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'retrying' }
  | { kind: 'conflict' };

/** Quiet time after the last change before the draft copy is sent. */
export const AUTOSAVE_IDLE_MS = 3_000;
const RETRY_MS = 5_000;

/**
 * A new post's draft copy stays in this browser until Create Post: creating the post on the server
 * before the writer asks would need relaxed create rules and a hand-over to the post's editor URL
 * with its own ways to end up with two posts. One slot per browser; the newest text wins.
 */
const NEW_POST_DRAFT_KEY = 'penstand:new-post-draft';

export type NewPostDraft = { fields: PostDraft; savedAt: string };

/** Returns when it was kept; throws when the browser refuses (storage full or disabled). */
function keepNewPostDraft(fields: PostInputRaw): string {
  const savedAt = new Date().toISOString();
  if (!fields.title.trim() && !fields.content.trim()) localStorage.removeItem(NEW_POST_DRAFT_KEY);
  else localStorage.setItem(NEW_POST_DRAFT_KEY, JSON.stringify({ fields, savedAt }));
  return savedAt;
}

function dropNewPostDraft() {
  try {
    localStorage.removeItem(NEW_POST_DRAFT_KEY);
  } catch {
    // Storage disabled: nothing was kept.
  }
}

/** The kept draft, read as an autosave is (the same limits); null when none or unreadable. */
export function readNewPostDraft(): NewPostDraft | null {
  try {
    const kept = JSON.parse(localStorage.getItem(NEW_POST_DRAFT_KEY) ?? 'null') as {
      fields?: unknown;
      savedAt?: unknown;
    } | null;
    const fields = postDraftSchema.safeParse(kept?.fields);
    if (!fields.success || typeof kept?.savedAt !== 'string') return null;
    return { fields: fields.data, savedAt: kept.savedAt };
  } catch {
    return null;
  }
}

/**
 * The editor's draft copy, sent a few seconds after typing stops and when the page is left.
 * Each autosave names the version it was based on; the server's answer is the next base. A 409
 * (another tab or admin saved meanwhile) stops autosaving: the writer's text stays in the form.
 * A new post (no id yet) is kept in this browser instead, and dropped when Create Post is pressed
 * (a refused save marks the form changed again, so it is kept anew).
 */
export function useAutosave(postId: number | null, initialVersion: number, read: () => FormData | null) {
  const [state, setState] = useState<AutosaveState>({ kind: 'idle' });
  const [version, setVersion] = useState(initialVersion);
  const base = useRef(initialVersion);
  const dirty = useRef(false);
  const conflict = useRef(false);
  const failing = useRef(false);
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const send = useCallback(
    (leaving = false): Promise<void> => {
      if (!dirty.current || conflict.current) return Promise.resolve();
      if (inFlight.current) return inFlight.current;
      const form = read();
      if (!form) return Promise.resolve();
      dirty.current = false;
      if (!leaving) setState({ kind: 'saving' });
      const run = async () => {
        try {
          if (!postId) {
            const at = keepNewPostDraft(postFromForm(form));
            failing.current = false;
            setState({ kind: 'saved', at });
            return;
          }
          const res = await fetch(`/api/posts/${postId}?action=autosave`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...postFromForm(form), baseVersion: base.current }),
            // Lets the request outlive a closing tab.
            keepalive: leaving,
          });
          if (res.status === 409) {
            conflict.current = true;
            setState({ kind: 'conflict' });
            return;
          }
          if (!res.ok) throw new Error(`autosave answered ${res.status}`);
          const saved = (await res.json()) as { version: number; savedAt: string };
          failing.current = false;
          base.current = saved.version;
          setVersion(saved.version);
          setState({ kind: 'saved', at: saved.savedAt });
        } catch {
          dirty.current = true;
          failing.current = true;
          setState({ kind: 'retrying' });
        }
      };
      const flight = run().finally(() => {
        inFlight.current = null;
        // Typed during the request, or failed: try again after a pause.
        if (dirty.current && !conflict.current) {
          clearTimeout(timer.current);
          timer.current = setTimeout(() => void send(), RETRY_MS);
        }
      });
      inFlight.current = flight;
      return flight;
    },
    [postId, read],
  );

  const changed = useCallback(() => {
    dirty.current = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void send(), AUTOSAVE_IDLE_MS);
  }, [send]);

  useEffect(() => {
    const leave = () => void send(true);
    const hidden = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      clearTimeout(timer.current);
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, [send]);

  /**
   * Before an explicit save: nothing more to autosave, and an autosave under way finishes first
   * so the save names the version it made.
   */
  const settle = useCallback(async () => {
    clearTimeout(timer.current);
    dirty.current = false;
    if (!postId) dropNewPostDraft();
    await inFlight.current;
  }, [postId]);

  /** After a restore: the post's new version is the base, and nothing is pending. */
  const rebase = useCallback((next: number) => {
    clearTimeout(timer.current);
    dirty.current = false;
    conflict.current = false;
    base.current = next;
    setVersion(next);
    setState({ kind: 'idle' });
  }, []);

  /** Whether some change is stored nowhere yet (typed since, under way, failing, or refused). */
  const unstored = useCallback(
    () => dirty.current || inFlight.current !== null || failing.current || conflict.current,
    [],
  );

  return { state, version, changed, settle, rebase, unstored };
}
