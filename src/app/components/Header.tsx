import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Form, Link, NavLink } from 'react-router';
import type { BlogSettings } from '../../settings/settings.ts';
import type { ThemePreference } from '../theme.ts';
import { LoginModal } from './auth/LoginModal.tsx';
import { Logo } from './Logo.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

export type HeaderUser = { email: string; username: string | null; isAdmin: boolean };

export function Header({
  settings,
  theme,
  user,
  cartCount,
}: {
  settings: BlogSettings;
  theme: ThemePreference;
  user: HeaderUser | null;
  cartCount: number;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = () => setMenuOpen(false);
  // The phone menu comes before its button in the page: opening it moves focus to its first link,
  // Escape closes it and gives focus back to the button.
  useEffect(() => {
    if (menuOpen) nav.current?.querySelector('a')?.focus();
  }, [menuOpen]);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    toggle.current?.focus();
  };
  // Guests can shop (DESIGN decision 2) unless the blog setting restricts it to signed-in users.
  const showShop = !settings.shopRequiresSignIn || user !== null;
  const links = [
    { to: '/', label: 'Home', end: true },
    { to: '/about', label: 'About', end: false },
    ...(showShop ? [{ to: '/shop', label: 'Shop', end: false }] : []),
    ...(user?.isAdmin ? [{ to: '/admin', label: 'Admin', end: false }] : []),
  ];
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link to="/" className="brand" aria-label={`${settings.title} home`} onClick={close}>
          <Logo size="sm" title={settings.title} />
        </Link>
        <nav
          aria-label="Main"
          className={menuOpen ? 'main-nav open' : 'main-nav'}
          id="main-nav"
          ref={nav}
          onKeyDown={closeOnEscape}
        >
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
          {showShop && (
            <Link
              to="/cart"
              className="icon-button cart-link"
              aria-label={`Cart, ${cartCount} ${cartCount === 1 ? 'item' : 'items'}`}
            >
              <svg
                width="20"
                height="20"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                aria-hidden="true"
              >
                <circle cx="9" cy="20" r="1.5" />
                <circle cx="18" cy="20" r="1.5" />
                <path d="M2 3h3l2.6 12.4a2 2 0 0 0 2 1.6h8.8a2 2 0 0 0 2-1.6L22 7H6" />
              </svg>
              {cartCount > 0 && (
                <span className="cart-badge" aria-hidden="true">
                  {cartCount}
                </span>
              )}
            </Link>
          )}
          <ThemeToggle initial={theme} />
          {user ? (
            <details className="user-menu">
              <summary className="button button-small button-secondary">
                <svg
                  className="user-menu-icon"
                  width="20"
                  height="20"
                  viewBox="0 0 24 24"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  aria-hidden="true"
                >
                  <circle cx="12" cy="8" r="4" />
                  <path d="M4 21a8 8 0 0 1 16 0" />
                </svg>
                <span className="user-name">{user.email || 'User'}</span>
                <span className="visually-hidden"> account menu</span>
              </summary>
              <div className="user-menu-panel card">
                <p className="muted user-menu-email">{user.email || 'User'}</p>
                <Link to="/account" className="button button-small button-secondary">
                  Your account
                </Link>
                <Form method="post" action="/logout">
                  <button type="submit" className="button button-small">
                    Log out
                  </button>
                </Form>
              </div>
            </details>
          ) : (
            <LoginModal />
          )}
          <button
            ref={toggle}
            type="button"
            className="icon-button menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
            onKeyDown={closeOnEscape}
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
