import { data } from 'react-router';
import { rssFeed } from '../../blog/feeds.ts';
import { tagsForSlug } from '../../blog/posts.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/tag.rss.xml';
import { enclosureMeasurer } from './feeds.server.ts';

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = getApp(context);
  const anyTag = await tagsForSlug(services.db, params.slug);
  if (anyTag.length === 0) throw data('No such tag', { status: 404 });
  const feed = await rssFeed(services.db, services.publicUrl, enclosureMeasurer(services.config.buildDir), {
    anyTag,
    name: anyTag[0],
    path: `/tag/${params.slug}`,
  });
  return new Response(feed, {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
