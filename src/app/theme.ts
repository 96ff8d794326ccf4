export type ThemePreference = 'light' | 'dark' | 'system';

export const THEME_STORAGE_KEY = 'blog-theme';

/** What the toggle switches to next: light → dark → system → light. */
export const NEXT_THEME: Record<ThemePreference, ThemePreference> = {
  light: 'dark',
  dark: 'system',
  system: 'light',
};
const THEME_NAME: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' };

/** The toggle's title and accessible name in each state (the plain-page script uses the same). */
export function themeToggleText(theme: ThemePreference): { title: string; label: string } {
  const title = `Theme: ${THEME_NAME[theme]}`;
  return { title, label: `${title}. Switch to ${THEME_NAME[NEXT_THEME[theme]].toLowerCase()} theme` };
}

/**
 * Inline, before first paint: resolves the stored preference and applies it, and defines
 * `penstandApplyTheme`, the one implementation of switching (the React toggle and the plain-page
 * script call it). A page that hydrates is also marked scripted (data-js): its phone menu button
 * works; a plain page keeps the menu links as a row of their own.
 */
export function themeScript({ hydrating }: { hydrating: boolean }): string {
  return `(function(){var r=document.documentElement,k='${THEME_STORAGE_KEY}';function a(t,s){var d=t==='dark'||(t==='system'&&matchMedia('(prefers-color-scheme: dark)').matches);r.classList.remove('light','dark');r.classList.add(d?'dark':'light');r.dataset.themePreference=t;try{if(s)localStorage.setItem(k,t)}catch(e){}document.cookie='theme='+t+';path=/;max-age=31536000;samesite=lax'}window.penstandApplyTheme=function(t){a(t,true)};var t=null;try{t=localStorage.getItem(k)}catch(e){}if(t!=='light'&&t!=='dark')t='system';a(t,false)${hydrating ? ";r.dataset.js=''" : ''}})()`;
}

declare global {
  interface Window {
    penstandApplyTheme(preference: ThemePreference): void;
  }
}

/** Stores the preference (localStorage for the page, a cookie for the server) and applies it. */
export function applyTheme(preference: ThemePreference): void {
  window.penstandApplyTheme(preference);
}

/** The preference the inline theme script applied to this page. */
export function appliedTheme(): ThemePreference {
  const value = document.documentElement.dataset.themePreference;
  return value === 'light' || value === 'dark' ? value : 'system';
}
