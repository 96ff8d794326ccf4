export type ThemePreference = 'light' | 'dark' | 'system';

export const THEME_STORAGE_KEY = 'blog-theme';

/**
 * Inline, before first paint: marks the root element as scripted (data-js; the phone menu needs
 * it), resolves the stored preference and applies it.
 */
export const THEME_SCRIPT = `(function(){document.documentElement.dataset.js='';try{var k='${THEME_STORAGE_KEY}',t=localStorage.getItem(k);if(t!=='light'&&t!=='dark')t='system';var d=t==='dark'||(t==='system'&&matchMedia('(prefers-color-scheme: dark)').matches),r=document.documentElement;r.classList.remove('light','dark');r.classList.add(d?'dark':'light');r.dataset.themePreference=t;document.cookie='theme='+t+';path=/;max-age=31536000;samesite=lax'}catch(e){}})()`;

/** Stores the preference (localStorage for the page, a cookie for the server) and applies it. */
export function applyTheme(preference: ThemePreference): void {
  localStorage.setItem(THEME_STORAGE_KEY, preference);
  document.cookie = `theme=${preference};path=/;max-age=31536000;samesite=lax`;
  const dark =
    preference === 'dark' || (preference === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  const root = document.documentElement;
  root.classList.remove('light', 'dark');
  root.classList.add(dark ? 'dark' : 'light');
  root.dataset.themePreference = preference;
}

export function storedTheme(): ThemePreference {
  const value = localStorage.getItem(THEME_STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}
