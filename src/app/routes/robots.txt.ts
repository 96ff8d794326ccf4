import { getApp } from '../context.ts';
import type { Route } from './+types/robots.txt';

export function loader({ context }: Route.LoaderArgs) {
  const { publicUrl } = getApp(context).services;
  return new Response(
    `User-agent: *\nDisallow: /admin\nDisallow: /cart\nDisallow: /checkout\nAllow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n`,
    {
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
    },
  );
}
