import { useEffect, useState } from 'react';
import { appliedTheme, applyTheme, NEXT_THEME, type ThemePreference, themeToggleText } from '../theme.ts';

/**
 * Cycles light → dark → system. The preference is stored under blog-theme and in a cookie. All
 * three icons are in the page and CSS shows the current one, so the plain-page script (pages that
 * do not hydrate) can switch it too.
 */
export function ThemeToggle({ initial }: { initial: ThemePreference }) {
  const [theme, setTheme] = useState<ThemePreference>(initial);
  useEffect(() => setTheme(appliedTheme()), []);
  const { title, label } = themeToggleText(theme);
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      aria-label={label}
      title={title}
      data-theme-preference={theme}
      onClick={() => {
        const next = NEXT_THEME[theme];
        applyTheme(next);
        setTheme(next);
      }}
    >
      <SunIcon />
      <MoonIcon />
      <SystemIcon />
    </button>
  );
}

function SunIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
      className="theme-icon-light"
    >
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
      className="theme-icon-dark"
    >
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
}

function SystemIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
      className="theme-icon-system"
    >
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </svg>
  );
}
