import { sitemap } from '../../blog/feeds.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/sitemap.xml';

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getApp(context);
  return new Response(await sitemap(services.db, services.publicUrl), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
