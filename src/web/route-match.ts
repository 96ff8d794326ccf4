import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import type { RouteHandle } from '../app/plain-page.ts';
import { pagePath } from '../server/page-routes.ts';

type RouteNode = { id: string; path?: string; index?: boolean; children: RouteNode[] };

export type PageRoute = {
  /** The route's pattern (e.g. /post/:slug), or 'unmatched'. */
  pattern: string;
  /** Whether the matched route takes a POST: only the deepest match's action runs. */
  hasAction: boolean;
  /** Whether the route's `handle` says its page may be served to sessions from a template. */
  sessionTemplate: boolean;
};

/** Maps a page path to its route (pattern and whether it has an action) using the build's route tree. */
function pageRouteMatcher(build: ServerBuild): (pathname: string) => PageRoute {
  const nodes = new Map<string, RouteNode>();
  for (const route of Object.values(build.routes)) {
    if (route) nodes.set(route.id, { id: route.id, path: route.path, index: route.index, children: [] });
  }
  const roots: RouteNode[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return (pathname) => {
    // Index routes never get children here, so the nodes are valid RouteObjects.
    const matches = matchRoutes(roots as RouteObject[], pagePath(pathname));
    if (!matches) return { pattern: 'unmatched', hasAction: false, sessionTemplate: false };
    const pattern = matches
      .map((m) => m.route.path)
      .filter(Boolean)
      .join('/')
      .replace(/\/+/g, '/');
    const leaf = build.routes[(matches[matches.length - 1].route as RouteNode).id]?.module;
    return {
      pattern: `/${pattern}`.replace(/^\/+/, '/'),
      hasAction: Boolean(leaf?.action),
      sessionTemplate: (leaf?.handle as RouteHandle | undefined)?.sessionTemplate === true,
    };
  };
}

/** Paths whose routes are remembered per build: a page's path repeats (home, the popular posts). */
const PATHS_REMEMBERED = 2_000;

const matchers = new WeakMap<
  ServerBuild,
  { match: (pathname: string) => PageRoute; seen: Map<string, PageRoute> }
>();

/**
 * The route of a page path in this build (the matcher made once per build). React Router's
 * matchRoutes flattens and ranks every route and compiles their patterns on each call, about a
 * fifth of a signed-in page's CPU, so a path's answer is remembered.
 */
export function pageRouteOf(build: ServerBuild, pathname: string): PageRoute {
  let matcher = matchers.get(build);
  if (!matcher) {
    matcher = { match: pageRouteMatcher(build), seen: new Map() };
    matchers.set(build, matcher);
  }
  let route = matcher.seen.get(pathname);
  if (!route) {
    route = matcher.match(pathname);
    if (matcher.seen.size >= PATHS_REMEMBERED) matcher.seen.clear();
    matcher.seen.set(pathname, route);
  }
  return route;
}
