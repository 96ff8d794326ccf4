import { Suspense } from 'react';
import { Await, data } from 'react-router';
import { getApp } from '../context.ts';
import type { Route } from './+types/diagnostics.stream';

/**
 * Outside production only: a page whose deferred part resolves after ?delay ms, to check
 * that the shell is streamed before slow data.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  if (getApp(context).services.config.isProduction) throw data('Not Found', { status: 404 });
  const delay = Math.min(Math.max(Number(new URL(request.url).searchParams.get('delay')) || 500, 0), 4_000);
  const slow = new Promise<string>((resolve) =>
    setTimeout(() => resolve(`resolved after ${delay} ms`), delay),
  );
  return { slow };
}

export const meta: Route.MetaFunction = () => [
  { title: 'Streaming diagnostics' },
  { name: 'robots', content: 'noindex' },
];

export default function StreamDiagnostics({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container">
      <h1>Streaming diagnostics</h1>
      <Suspense fallback={<p data-testid="pending">Waiting for deferred data…</p>}>
        <Await resolve={loaderData.slow}>{(text) => <p data-testid="deferred">{text}</p>}</Await>
      </Suspense>
    </section>
  );
}
