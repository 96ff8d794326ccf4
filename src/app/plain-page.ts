import type { UIMatch } from 'react-router';
import { TOAST_DURATION_MS } from './components/Toaster.tsx';
import { NEXT_THEME, type ThemePreference, themeToggleText } from './theme.ts';

/**
 * A route module's `handle`. `hydrate: false` serves its documents as plain HTML: no React
 * runtime is loaded (a post is read, not operated; its forms and links work without scripts), and
 * one small inline script keeps the theme toggle and toasts working. A client-side navigation to
 * such a route from a hydrated page still renders it with React.
 *
 * `sessionTemplate: true` serves its page to sessions from one render kept as a template
 * (web/session-templates.ts): its loader reads nothing of the session (the root's user and
 * cart count are the template's slots and key; the cart and checkout pages read their cart). A
 * render that reads more is not kept, and the templates test fails.
 */
export type RouteHandle = { hydrate?: false; sessionTemplate?: true };

export function isPlainDocument(matches: UIMatch[]): boolean {
  return matches.some((match) => (match.handle as RouteHandle | undefined)?.hydrate === false);
}

const TOGGLE_TEXT = Object.fromEntries(
  (Object.keys(NEXT_THEME) as ThemePreference[]).map((theme) => [theme, themeToggleText(theme)]),
);

/**
 * At the end of a plain page's body: the theme toggle (through penstandApplyTheme), dismissable
 * toasts, the share section's copy button (shown only here, where a script runs; its toast is
 * the markup of Toaster), and the comments' Reply links, which open the reply form of
 * #reply-template under the comment in place instead of loading the page with ?replyTo=.
 * Each toast goes TOAST_DURATION_MS after it came: the sweep at load takes only the server's.
 */
export const PLAIN_PAGE_SCRIPT = `(function(){var N=${JSON.stringify(NEXT_THEME)},T=${JSON.stringify(TOGGLE_TEXT)},r=document.documentElement;function p(){return r.dataset.themePreference||'system'}function s(b){var t=p();b.dataset.themePreference=t;b.title=T[t].title;b.setAttribute('aria-label',T[t].label)}function w(m,k){var t=document.querySelector('.toaster');t.innerHTML='<div class="toast'+(k?' toast-error" role="alert':'" role="status')+'"><div><p class="toast-title"></p></div><button type="button" class="icon-button toast-close" aria-label="Dismiss">\u00d7</button></div>';t.querySelector('p').textContent=m;var d=t.firstElementChild;setTimeout(function(){d.remove()},${TOAST_DURATION_MS})}document.querySelectorAll('.theme-toggle').forEach(s);document.querySelectorAll('.share-copy').forEach(function(b){b.hidden=false});document.addEventListener('click',function(e){var b=e.target.closest('.theme-toggle');if(b){window.penstandApplyTheme(N[p()]);s(b);return}var y=e.target.closest('.share-copy');if(y){Promise.resolve().then(function(){return navigator.clipboard.writeText(y.dataset.url)}).then(function(){w(y.dataset.done)},function(){w(y.dataset.failed,1)});return}var a=e.target.closest('.reply-link');if(a){var i=a.dataset.replyTo,t=document.getElementById('reply-template'),f=document.querySelector('.comments .reply-form')||(t&&t.content.firstElementChild.cloneNode(true));if(!f)return;e.preventDefault();var q=new URLSearchParams(location.search);q.set('replyTo',i);f.id='reply-'+i;f.querySelector('h3').textContent=a.dataset.replyHeading;f.querySelector('[name=parentId]').value=i;f.querySelector('form').action=location.pathname+'?'+q+'#reply-'+i;document.getElementById('comment-'+i).appendChild(f);f.querySelector('[name=author]').focus();return}var x=e.target.closest('.reply-cancel');if(x&&document.getElementById('reply-template')){e.preventDefault();var o=x.closest('.reply-form'),l=o.parentNode.querySelector('.reply-link');o.remove();l.focus();return}var c=e.target.closest('.toast-close');if(c)c.closest('.toast').remove()});var z=document.querySelectorAll('.toast');setTimeout(function(){z.forEach(function(t){t.remove()})},${TOAST_DURATION_MS})})()`;
