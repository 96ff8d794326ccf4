import { Link } from 'react-router';
import { confirmSubscription } from '../../blog/newsletter.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/newsletter.confirm';

export const meta: Route.MetaFunction = () => [
  { title: 'Confirm subscription' },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return { confirmed: await confirmSubscription(getApp(context).services.db, token) };
}

export default function ConfirmSubscription({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container narrow-page">
      <h1>{loaderData.confirmed ? 'Subscription confirmed' : 'Link not valid'}</h1>
      <p>
        {loaderData.confirmed
          ? 'Thank you! New posts will arrive in your inbox.'
          : 'This confirmation link is not valid. Please subscribe again from the footer.'}
      </p>
      <Link className="button" to="/">
        Back to the blog
      </Link>
    </section>
  );
}
