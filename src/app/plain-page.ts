import type { UIMatch } from 'react-router';
import { TOAST_DURATION_MS } from './components/Toaster.tsx';
import { NEXT_THEME, type ThemePreference, themeToggleText } from './theme.ts';

/**
 * A route module's `handle`. `hydrate: false` serves its documents as plain HTML: no React
 * runtime is loaded (a post is read, not operated; its forms and links work without scripts), and
 * one small inline script keeps the theme toggle and toasts working. A client-side navigation to
 * such a route from a hydrated page still renders it with React.
 */
export type RouteHandle = { hydrate?: false };

export function isPlainDocument(matches: UIMatch[]): boolean {
  return matches.some((match) => (match.handle as RouteHandle | undefined)?.hydrate === false);
}

const TOGGLE_TEXT = Object.fromEntries(
  (Object.keys(NEXT_THEME) as ThemePreference[]).map((theme) => [theme, themeToggleText(theme)]),
);

/** At the end of a plain page's body: the theme toggle (through penstandApplyTheme) and dismissable toasts. */
export const PLAIN_PAGE_SCRIPT = `(function(){var N=${JSON.stringify(NEXT_THEME)},T=${JSON.stringify(TOGGLE_TEXT)},r=document.documentElement;function p(){return r.dataset.themePreference||'system'}function s(b){var t=p();b.dataset.themePreference=t;b.title=T[t].title;b.setAttribute('aria-label',T[t].label)}document.querySelectorAll('.theme-toggle').forEach(s);document.addEventListener('click',function(e){var b=e.target.closest('.theme-toggle');if(b){window.penstandApplyTheme(N[p()]);s(b);return}var c=e.target.closest('.toast-close');if(c)c.closest('.toast').remove()});setTimeout(function(){document.querySelectorAll('.toast').forEach(function(t){t.remove()})},${TOAST_DURATION_MS})})()`;
