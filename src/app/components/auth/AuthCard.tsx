import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="container auth-page">
      <div className="card auth-card">
        <h1>{title}</h1>
        {children}
        <p className="auth-links">
          {footer}
          <Link to="/">← Back to blog</Link>
        </p>
      </div>
    </section>
  );
}
