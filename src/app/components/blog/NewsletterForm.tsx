import { type FormEvent, useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { BLOG_MESSAGES } from '../../../blog/messages.ts';
import { useFocusFirstError } from '../FormErrors.tsx';

type Result = { ok: true } | { ok: false; message: string; field?: 'email' };

/**
 * The one newsletter form, in the footer of every page and in the home box. It subscribes
 * through the /newsletter action; without JavaScript the answer shows on that page. An empty
 * address does nothing (SPEC §5); a subscription asks the reader to confirm from their inbox
 * (double opt-in, not SPEC's 'Subscribed!') and clears the field.
 */
export function NewsletterForm({ id }: { id: string }) {
  const fetcher = useFetcher<Result>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.data;
  useEffect(() => {
    if (result?.ok) form.current?.reset();
  }, [result]);
  const refused = result && !result.ok ? result : undefined;
  useFocusFirstError(form, refused);
  const skipEmpty = (event: FormEvent<HTMLFormElement>) => {
    const email = new FormData(event.currentTarget).get('email');
    if (typeof email !== 'string' || email.trim() === '') event.preventDefault();
  };
  return (
    <fetcher.Form
      method="post"
      action="/newsletter"
      ref={form}
      className="newsletter-form"
      onSubmit={skipEmpty}
    >
      <label htmlFor={id} className="visually-hidden">
        Email address
      </label>
      <div className="newsletter-row">
        <input
          id={id}
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          maxLength={254}
          aria-invalid={refused?.field === 'email' ? true : undefined}
          aria-describedby={refused ? `${id}-status` : undefined}
        />
        <button type="submit" className="button" disabled={fetcher.state !== 'idle'}>
          {fetcher.state !== 'idle' ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      <div aria-live="polite">
        {result?.ok && (
          <p className="form-status success" role="status">
            <strong>{BLOG_MESSAGES.subscribed.title}</strong> {BLOG_MESSAGES.subscribed.description}
          </p>
        )}
        {refused && (
          <p id={`${id}-status`} className="form-status error" role="alert">
            {refused.message}
          </p>
        )}
      </div>
    </fetcher.Form>
  );
}
