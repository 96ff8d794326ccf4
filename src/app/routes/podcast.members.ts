import { data } from 'react-router';
import { podcastFeed } from '../../blog/feeds.ts';
import { readerOfFeedToken } from '../../identity/membership.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/podcast.members';
import { enclosureMeasurer } from './feeds.server.ts';

/** A member's private podcast feed (the token on their Account page): the episodes they may hear now. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = getApp(context);
  const reader = await readerOfFeedToken(services.db, params.token);
  if (!reader) throw data(null, { status: 404 });
  const self = `${services.publicUrl}/podcast/members/${params.token}`;
  return new Response(
    await podcastFeed(services.db, services.publicUrl, enclosureMeasurer(services.config.buildDir), {
      reader,
      self,
    }),
    {
      headers: {
        'Content-Type': 'application/rss+xml; charset=utf-8',
        // One member's feed: never kept by a shared cache, and gone the moment it is revoked.
        'Cache-Control': 'private, no-store',
        'X-Robots-Tag': 'noindex',
      },
    },
  );
}
