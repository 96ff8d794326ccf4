import { useEffect, useState } from 'react';

export type ToastMessage = { title: string; description?: string; type?: 'success' | 'error' };

export const TOAST_DURATION_MS = 5_000;

/** One toast at a time, announced politely, gone after 5 s or when dismissed. */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const [shown, setShown] = useState(toast);
  useEffect(() => {
    setShown(toast);
    if (!toast) return;
    const timer = setTimeout(() => setShown(null), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  return (
    <div className="toaster" aria-live="polite">
      {shown && (
        <div
          className={`toast ${shown.type === 'error' ? 'toast-error' : ''}`}
          role={shown.type === 'error' ? 'alert' : 'status'}
        >
          <div>
            <p className="toast-title">{shown.title}</p>
            {shown.description && <p className="toast-description">{shown.description}</p>}
          </div>
          <button
            type="button"
            className="icon-button toast-close"
            aria-label="Dismiss"
            onClick={() => setShown(null)}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
