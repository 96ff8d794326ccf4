import { data, Link } from 'react-router';
import { BLOG_MESSAGES } from '../../blog/messages.ts';
import { newsletterSchema, subscribe } from '../../blog/newsletter.ts';
import { rateLimit } from '../../kernel/rate-limit.ts';
import { NewsletterForm } from '../components/blog/NewsletterForm.tsx';
import { getApp } from '../context.ts';
import type { Route } from './+types/newsletter';

export const meta: Route.MetaFunction = () => [
  { title: 'Newsletter' },
  { name: 'robots', content: 'noindex' },
];

/** The footer and home forms post here; with JavaScript the answer shows in place, without it on this page. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const parsed = newsletterSchema.safeParse({ email: form.get('email') ?? '' });
  if (!parsed.success)
    return data(
      { ok: false as const, message: parsed.error.issues[0].message, field: 'email' as const },
      { status: 400 },
    );
  try {
    await rateLimit(services.db, 'newsletter').consume(state.clientIp);
  } catch (error) {
    return data({ ok: false as const, message: (error as Error).message }, { status: 429 });
  }
  await subscribe(services.db, services.queues, parsed.data.email, services.publicUrl);
  return { ok: true as const };
}

/**
 * Without JavaScript a form's answer shows here: React Router runs a page's loaders after its
 * action, so a loader that sent visits home would send the answer home too. A visit gets the form.
 */
export default function Newsletter({ actionData }: Route.ComponentProps) {
  if (!actionData)
    return (
      <section className="container narrow-page">
        <h1>Newsletter</h1>
        <p>New posts in your inbox, and nothing else. Unsubscribe at any time.</p>
        <NewsletterForm id="newsletter-page-email" />
      </section>
    );
  return (
    <section className="container narrow-page">
      {actionData.ok ? (
        <div role="status">
          <h1>{BLOG_MESSAGES.subscribed.title}</h1>
          <p>{BLOG_MESSAGES.subscribed.description}</p>
        </div>
      ) : (
        <div role="alert">
          <h1>Newsletter</h1>
          <p>{actionData.message}</p>
        </div>
      )}
      <Link className="button" to="/">
        Back to the blog
      </Link>
    </section>
  );
}
