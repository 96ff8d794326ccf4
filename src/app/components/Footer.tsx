import { Link } from 'react-router';
import { type BlogSettings, socialLinkList } from '../../settings/settings.ts';
import { NewsletterForm } from './blog/NewsletterForm.tsx';
import { Logo } from './Logo.tsx';

export const FOOTER_CATEGORIES = ['Technology', 'Design', 'Tutorial', 'Life'] as const;

export function Footer({ settings }: { settings: BlogSettings }) {
  const social = socialLinkList(settings.socialLinks);
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="visually-hidden">
            About this blog
          </h2>
          <Logo size="sm" title={settings.title} />
          <p className="muted">{settings.description}</p>
          {social.length > 0 && (
            <ul className="social-links">
              {social.map(({ key, label, url }) => (
                <li key={key}>
                  <a href={url} rel="me noopener noreferrer" target="_blank">
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
        <nav aria-labelledby="footer-categories">
          <h2 id="footer-categories" className="footer-heading">
            Categories
          </h2>
          <ul>
            {FOOTER_CATEGORIES.map((category) => (
              <li key={category}>
                <Link to={`/?category=${category}`}>{category}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-newsletter">
          <h2 id="footer-newsletter" className="footer-heading">
            Newsletter
          </h2>
          <p className="muted">New posts in your inbox, no more than once a week.</p>
          <NewsletterForm id="newsletter-footer" />
        </section>
      </div>
      <div className="container footer-bottom">
        <p className="muted">{`© ${new Date().getFullYear()} ${settings.title}. All rights reserved.`}</p>
      </div>
    </footer>
  );
}
