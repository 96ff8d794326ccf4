import { useEffect } from 'react';
import { Form, useNavigation, useRevalidator } from 'react-router';
import type { NewsletterProgress } from '../../blog/newsletter-delivery.ts';
import { Notice } from './Notice.tsx';

export type NewsletterResult = { ok: boolean; title: string; message?: string };

/** A post's newsletter in its editor: send it once (after a confirmation), test it, watch it go out. */
export function NewsletterCard({
  progress,
  postStatus,
  result,
}: {
  progress: NewsletterProgress;
  postStatus: string;
  result: NewsletterResult | null;
}) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const intent = navigation.formData?.get('intent');
  // A published post's queued newsletter starts within seconds; a scheduled one waits for its time.
  const sending = progress.state === 'sending' || (progress.state === 'queued' && postStatus === 'published');
  // Live progress while it goes out: the counts are read again every few seconds.
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => revalidator.revalidate(), 3_000);
    return () => clearInterval(timer);
  }, [sending, revalidator]);
  const sendable = postStatus === 'published' || postStatus === 'scheduled';
  const n = progress.subscribers;
  return (
    <section className="card admin-stack" aria-labelledby="newsletter-heading">
      {/* Not 'Newsletter': the footer's subscribe region has that name, and landmarks need their own. */}
      <h2 id="newsletter-heading">Send as a newsletter</h2>
      <Notice result={result} />
      {progress.state === null ? (
        sendable && n === 0 ? (
          <p className="muted">
            No confirmed subscribers yet: readers subscribe from the footer and confirm by email.
          </p>
        ) : sendable ? (
          <Form method="post">
            <input type="hidden" name="intent" value="newsletter-send" />
            <div className="field admin-checkbox">
              <input id="newsletter-confirm" name="confirm" type="checkbox" required />
              <label htmlFor="newsletter-confirm">
                Yes, email this post to {n} confirmed {n === 1 ? 'subscriber' : 'subscribers'}
                {postStatus === 'scheduled' ? ' when it is published' : ' now'}. It can be sent only once.
              </label>
            </div>
            <button type="submit" className="button" disabled={intent === 'newsletter-send'}>
              Send by email to {n} {n === 1 ? 'subscriber' : 'subscribers'}
            </button>
          </Form>
        ) : (
          <p className="muted">Publish or schedule the post to send it by email.</p>
        )
      ) : (
        <p role="status" data-testid="newsletter-progress">
          {progress.state === 'queued'
            ? postStatus === 'published'
              ? 'Starting: it goes out in a few seconds.'
              : 'Queued: it goes out when the post is published.'
            : `${progress.state === 'sent' ? 'Sent' : 'Sending'}: ${progress.sent} of ${progress.total} delivered${progress.failed ? `, ${progress.failed} failed` : ''}.`}
        </p>
      )}
      <Form method="post">
        <input type="hidden" name="intent" value="newsletter-test" />
        <button type="submit" className="button button-secondary" disabled={intent === 'newsletter-test'}>
          Send a test to me
        </button>
      </Form>
    </section>
  );
}
