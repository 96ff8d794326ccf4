import { podcastFeed } from '../../blog/feeds.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/podcast.xml';
import { localFileSize } from './feeds.server.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getApp(context);
  return new Response(await podcastFeed(services.db, services.publicUrl, localFileSize), {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  });
}
