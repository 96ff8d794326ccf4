import { podcastCoverPng } from '../../blog/podcast-cover.ts';
import { getBlogSettings } from '../../settings/settings.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/podcast-cover.png';

/** The podcast feed's itunes:image: a 1400 px PNG drawn from the blog's title. */
export async function loader({ context }: Route.LoaderArgs) {
  const { title } = await getBlogSettings(getApp(context).services.db);
  const png = await podcastCoverPng(title);
  return new Response(new Uint8Array(png), {
    headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=3600' },
  });
}
