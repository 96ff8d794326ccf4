import { savedTime } from './fields.ts';

/** An unsaved draft offered back on opening: restore it, or go on with what the form shows. */
export function DraftOffer({
  savedAt,
  keptWhere,
  restore,
  close,
  keepLabel,
}: {
  savedAt: string;
  keptWhere: string;
  restore: () => void;
  close: () => void;
  keepLabel: string;
}) {
  return (
    <section className="card editor-draft" aria-label="Unsaved draft">
      <p>
        An unsaved draft from {savedTime(savedAt)} was kept {keptWhere}.
      </p>
      <div className="admin-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            restore();
            close();
          }}
        >
          Restore draft
        </button>
        <button type="button" className="button button-small button-secondary" onClick={close}>
          {keepLabel}
        </button>
      </div>
    </section>
  );
}
