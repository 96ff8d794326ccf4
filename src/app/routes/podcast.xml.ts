import { podcastFeed } from '../../blog/feeds.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/podcast.xml';
import { enclosureMeasurer } from './feeds.server.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getApp(context);
  return new Response(
    await podcastFeed(services.db, services.publicUrl, enclosureMeasurer(services.config.buildDir)),
    {
      headers: {
        'Content-Type': 'application/rss+xml; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
      },
    },
  );
}
