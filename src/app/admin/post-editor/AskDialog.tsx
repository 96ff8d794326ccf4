import { type ReactNode, type SyntheticEvent, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CARD_ANSWERS } from '../../../blog/post-schema.ts';
import type { z } from '../../../zod.ts';

/** What a card (or a link) asks the writer for: one field, checked as the renderer will read it. */
export type Question = { title: string; label: string; schema: z.ZodType<string, string> };

/** Asks the writer in the dialog: the parsed answer, or null when cancelled. */
export type Ask = (question: Question) => Promise<string | null>;

export const QUESTIONS = {
  youtube: { title: 'YouTube video', label: 'YouTube link or video id', schema: CARD_ANSWERS.youtube },
  podcast: { title: 'Podcast episode', label: 'Podcast audio URL', schema: CARD_ANSWERS.podcast },
  image: { title: 'Image', label: 'Image URL', schema: CARD_ANSWERS.image },
  gif: { title: 'GIF', label: 'GIF URL', schema: CARD_ANSWERS.image },
  link: { title: 'Link', label: 'Link URL', schema: CARD_ANSWERS.link },
} as const satisfies Record<string, Question>;

/** Events inside the dialog are its own: they must not mark the post changed, submit or save it. */
const keepInside = (event: SyntheticEvent) => event.stopPropagation();

/**
 * A modal dialog with one labelled field, OK and Cancel; Escape cancels. It is put at the end of
 * the page (its form cannot sit inside the post's form), and React's events, which would still
 * reach the post's form through the portal, stop at it. `onClose` gets the parsed answer, or null.
 */
function AskDialog({ question, onClose }: { question: Question; onClose: (answer: string | null) => void }) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const answer = useRef<string | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    dialog.current?.showModal();
    input.current?.focus();
  }, []);
  return createPortal(
    <dialog
      ref={dialog}
      className="card ask-dialog"
      aria-labelledby={`${id}-title`}
      onClose={() => onClose(answer.current)}
      onInput={keepInside}
      onKeyDown={keepInside}
    >
      <form
        method="dialog"
        noValidate
        onSubmit={(event) => {
          keepInside(event);
          event.preventDefault();
          const parsed = question.schema.safeParse(input.current?.value ?? '');
          if (!parsed.success) {
            setError(parsed.error.issues[0]?.message ?? '');
            input.current?.focus();
            return;
          }
          answer.current = parsed.data;
          dialog.current?.close();
        }}
      >
        <h2 id={`${id}-title`} className="ask-dialog-title">
          {question.title}
        </h2>
        <label htmlFor={`${id}-answer`}>{question.label}</label>
        <input
          id={`${id}-answer`}
          ref={input}
          inputMode="url"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={() => setError('')}
        />
        {error ? (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="ask-dialog-actions">
          <button type="submit" className="button button-small">
            OK
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}

/**
 * Asks with the dialog: `ask(question)` resolves with the answer, or null when cancelled; `afterClose`
 * gives the focus back to where the writer was before the answer is used.
 */
export function useAskDialog(afterClose: () => void): { ask: Ask; dialog: ReactNode } {
  const [asking, setAsking] = useState<{
    question: Question;
    resolve: (answer: string | null) => void;
  } | null>(null);
  const ask: Ask = (question) => new Promise((resolve) => setAsking({ question, resolve }));
  const dialog = asking ? (
    <AskDialog
      question={asking.question}
      onClose={(answer) => {
        setAsking(null);
        afterClose();
        asking.resolve(answer);
      }}
    />
  ) : null;
  return { ask, dialog };
}
