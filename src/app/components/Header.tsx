import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import type { BlogSettings } from '../../blog/settings.ts';
import type { ThemePreference } from '../theme.ts';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

export function Header({ settings, theme }: { settings: BlogSettings; theme: ThemePreference }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);
  const links = [
    { to: '/', label: 'Home', end: true },
    { to: '/about', label: 'About', end: false },
    ...(settings.shopRequiresSignIn ? [] : [{ to: '/shop', label: 'Shop', end: false }]),
  ];
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link to="/" className="brand" aria-label={`${settings.title} home`} onClick={close}>
          <Logo size="sm" title={settings.title} />
        </Link>
        <nav aria-label="Main" className={menuOpen ? 'main-nav open' : 'main-nav'} id="main-nav">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end} onClick={close}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-actions">
          <ThemeToggle initial={theme} />
          <Link to="/login" className="button button-small">
            Log in
          </Link>
          <button
            type="button"
            className="icon-button menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <svg
              width="22"
              height="22"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden="true"
            >
              {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
      </div>
    </header>
  );
}
