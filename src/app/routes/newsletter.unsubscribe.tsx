import { Form, Link, useNavigation } from 'react-router';
import { unsubscribeByToken } from '../../blog/newsletter-delivery.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/newsletter.unsubscribe';

export const meta: Route.MetaFunction = () => [
  { title: 'Unsubscribe' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export function loader({ request }: Route.LoaderArgs) {
  // Opening the link changes nothing (mail scanners follow links): the button below does.
  return { token: new URL(request.url).searchParams.get('token') ?? '' };
}

/** The page's button, and the one-click POST mailbox providers send (RFC 8058): both idempotent. */
export async function action({ request, context }: Route.ActionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return { done: await unsubscribeByToken(getApp(context).services.db, token.slice(0, 100)) };
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (actionData)
    return (
      <section className="container narrow-page">
        <h1>{actionData.done ? 'You are unsubscribed' : 'Link not valid'}</h1>
        <p>
          {actionData.done
            ? 'You will get no more newsletters from us. You can subscribe again at any time from the footer.'
            : 'This unsubscribe link is not valid. Use the link in a newsletter you received.'}
        </p>
        <Link className="button" to="/">
          Back to the blog
        </Link>
      </section>
    );
  return (
    <section className="container narrow-page">
      <h1>Unsubscribe from the newsletter?</h1>
      <p>You will get no more new posts by email.</p>
      <Form method="post" action={`/newsletter/unsubscribe?token=${encodeURIComponent(loaderData.token)}`}>
        <button type="submit" className="button" disabled={navigation.state === 'submitting'}>
          Unsubscribe
        </button>
      </Form>
    </section>
  );
}
