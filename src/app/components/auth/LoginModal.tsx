import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { SignInForm } from './SignInForm.tsx';

/**
 * The header's 'Log in': a link to /login without JavaScript, a modal with it. Closing the modal
 * clears its fields and error (the form is mounted afresh on every opening).
 */
export function LoginModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  // The form exists only while the modal is open: closed, it leaves no fields behind.
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => {
    if (location.pathname) dialog.current?.close();
  }, [location.pathname]);
  return (
    <>
      <Link
        to="/login"
        className="button button-small"
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        Log in
      </Link>
      <dialog
        ref={dialog}
        className="login-modal"
        aria-labelledby="login-modal-title"
        onClose={() => setOpen(false)}
      >
        <div className="login-modal-header">
          <h2 id="login-modal-title">Welcome Back</h2>
          <button
            type="button"
            className="icon-button"
            aria-label="Close"
            onClick={() => dialog.current?.close()}
          >
            ×
          </button>
        </div>
        {open && (
          <SignInForm
            by="email"
            idPrefix="modal"
            redirectTo={location.pathname + location.search}
            forgotHref="/forgot-password"
          />
        )}
      </dialog>
    </>
  );
}
