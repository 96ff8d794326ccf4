import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { BLOG_MESSAGES } from '../../../blog/messages.ts';

type Result = { ok: true } | { ok: false; message: string };

/** Subscribes through the /newsletter action; works without JavaScript (the action redirects back). */
export function NewsletterForm({ id, compact = false }: { id: string; compact?: boolean }) {
  const fetcher = useFetcher<Result>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.data;
  useEffect(() => {
    if (result?.ok) form.current?.reset();
  }, [result]);
  return (
    <fetcher.Form
      method="post"
      action="/newsletter"
      ref={form}
      className={compact ? 'newsletter-form compact' : 'newsletter-form'}
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
        {result && !result.ok && (
          <p className="form-status error" role="alert">
            {result.message}
          </p>
        )}
      </div>
    </fetcher.Form>
  );
}
