import { data, Form, Link, useNavigation } from 'react-router';
import { unsubscribeCommentNotices } from '../../blog/comment-notices.ts';
import { unsubscribeByToken } from '../../blog/newsletter-delivery.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/newsletter.unsubscribe';

/** The two mailings with an unsubscribe link: newsletters, and the comment notices a commenter asked for. */
const LISTS = {
  newsletter: {
    question: 'Unsubscribe from the newsletter?',
    consequence: 'You will get no more new posts by email.',
    done: 'You will get no more newsletters from us. You can subscribe again at any time from the footer.',
    invalid: 'This unsubscribe link is not valid. Use the link in a newsletter you received.',
  },
  comments: {
    question: 'Stop comment notifications?',
    consequence: 'You will get no more mails about your comments being published or answered.',
    done: 'You will get no more mails about your comments. Tick the box on a new comment to get them again.',
    invalid: 'This unsubscribe link is not valid. Use the link in a comment notification you received.',
  },
} satisfies Record<string, Record<string, string>>;

type List = keyof typeof LISTS;

/** /comments/unsubscribe is this page too (routes.ts); the path says which mailing (its first segment is the list). */
function target(request: Request): { list: List; token: string } {
  const url = new URL(request.url);
  return {
    list: url.pathname.startsWith('/comments/') ? 'comments' : 'newsletter',
    token: url.searchParams.get('token') ?? '',
  };
}

export const meta: Route.MetaFunction = () => [
  { title: 'Unsubscribe' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export function loader({ request }: Route.LoaderArgs) {
  // Opening the link changes nothing (mail scanners follow links): the button below does.
  return target(request);
}

/** The page's button, and the one-click POST mailbox providers send (RFC 8058): both idempotent. */
export async function action({ request, context }: Route.ActionArgs) {
  const { list, token } = target(request);
  // Here, not in LISTS: the page's component reads LISTS, and these would ship to the browser with it.
  const unsubscribe = list === 'comments' ? unsubscribeCommentNotices : unsubscribeByToken;
  const done = await unsubscribe(getApp(context).services.db, token.slice(0, 100));
  // A 404 for a forged or unknown token, so a mailbox provider's one-click POST can tell.
  return data({ done }, { status: done ? 200 : 404 });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const text = LISTS[loaderData.list];
  if (actionData)
    return (
      <section className="container narrow-page">
        <h1>{actionData.done ? 'You are unsubscribed' : 'Link not valid'}</h1>
        <p>{actionData.done ? text.done : text.invalid}</p>
        <Link className="button" to="/">
          Back to the blog
        </Link>
      </section>
    );
  return (
    <section className="container narrow-page">
      <h1>{text.question}</h1>
      <p>{text.consequence}</p>
      <Form
        method="post"
        action={`/${loaderData.list}/unsubscribe?token=${encodeURIComponent(loaderData.token)}`}
      >
        <button type="submit" className="button" disabled={navigation.state === 'submitting'}>
          Unsubscribe
        </button>
      </Form>
    </section>
  );
}
