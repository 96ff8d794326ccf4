import uiFont from '@fontsource-variable/source-sans-3/files/source-sans-3-latin-wght-normal.woff2?url';
import { type ReactNode, useEffect } from 'react';
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from 'react-router';
import { countCartItems } from '../shop/cart.ts';
import type { Route } from './+types/root';
import './app.css';
import { PostSkeleton } from './components/blog/PostSkeleton.tsx';
import { Footer } from './components/Footer.tsx';
import { Header } from './components/Header.tsx';
import { NotFound, PAGE_NOT_FOUND, RecordNotFound } from './components/NotFound.tsx';
import { Toaster } from './components/Toaster.tsx';
import { getApp } from './context.ts';
import { useNonce } from './nonce.tsx';
import { isPlainDocument, PLAIN_PAGE_SCRIPT } from './plain-page.ts';
import { themeScript } from './theme.ts';
import { takeToast } from './toast.server.ts';

/** The UI face (app.css) is fetched with the page, not after its CSS: no late swap of every heading. */
export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'preload', href: uiFont, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
];

export const meta: Route.MetaFunction = ({ error }) => {
  if (!error) return [];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [
    { title: notFound ? PAGE_NOT_FOUND : 'Something went wrong' },
    { name: 'robots', content: 'noindex' },
  ];
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, state } = getApp(context);
  const settings = await services.settings.get();
  const user = state.session.user;
  // Only an existing session can have a cart: counting never creates one. Read with the session
  // when nothing in this request could have changed it.
  const cartCount =
    state.session.cartCount ??
    (state.session.id
      ? await countCartItems(services.db, { userId: user?.id ?? null, sessionId: state.session.id })
      : 0);
  const { toast, clear } = takeToast(request);
  return data(
    {
      theme: state.theme,
      settings,
      // Only what the header needs: never the whole user row.
      user: user ? { email: user.email, username: user.username, isAdmin: user.role === 'admin' } : null,
      cartCount,
      toast,
      // Every price on the page is shown in it (formatPrice, shared with the server).
      currency: services.config.currency,
    },
    clear ? { headers: { 'Set-Cookie': clear } } : undefined,
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>('root');
  const theme = rootData?.theme ?? 'system';
  // Decided on the server; once React runs in the browser every route it navigates to is rendered.
  const matches = useMatches();
  const plain = typeof document === 'undefined' && isPlainDocument(matches);
  return (
    <html lang="en" className={theme === 'system' ? undefined : theme} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* Applies the stored theme before first paint: no flash of the wrong theme. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, carrying the CSP nonce
          dangerouslySetInnerHTML={{ __html: themeScript({ hydrating: !plain }) }}
        />
        <Meta />
        {/* No nonce on stylesheet links (style-src allows 'self'): the browser hides a nonce from the
            DOM, and React, which renders none in the browser, would report the difference. */}
        <Links nonce="" />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        {plain ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, carrying the CSP nonce
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PLAIN_PAGE_SCRIPT }} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  // Marks the page interactive; end-to-end tests wait for it before clicking.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    // A navigation that supersedes another (a link followed while an action's revalidation is on
    // its way) aborts the older one's requests; React Router leaves some of those rejections
    // unhandled. They are expected, not errors: anything else still reaches the console.
    const ignoreAborts = (event: PromiseRejectionEvent) => {
      if ((event.reason as { name?: unknown } | null)?.name === 'AbortError') event.preventDefault();
    };
    window.addEventListener('unhandledrejection', ignoreAborts);
    return () => window.removeEventListener('unhandledrejection', ignoreAborts);
  }, []);
  // A post opened from another page shows its skeleton until its data arrives.
  const navigation = useNavigation();
  const location = useLocation();
  const loadingPost =
    navigation.state === 'loading' &&
    navigation.location.pathname.startsWith('/post/') &&
    navigation.location.pathname !== location.pathname;
  return (
    <div className="shell">
      <Header
        settings={loaderData.settings}
        theme={loaderData.theme}
        user={loaderData.user}
        cartCount={loaderData.cartCount}
      />
      <main id="main" className="main">
        {loadingPost ? <PostSkeleton /> : <Outlet />}
      </main>
      <Footer settings={loaderData.settings} />
      <Toaster toast={loaderData.toast} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const rootData = useRouteLoaderData<typeof loader>('root');
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A loader that names the missing record says so; otherwise the page-not-found page.
  const missingRecord = notFound && typeof error.data === 'string' && error.data ? error.data : null;
  const content = missingRecord ? (
    <RecordNotFound message={missingRecord} />
  ) : notFound ? (
    <NotFound />
  ) : (
    <section className="container error-page">
      <h1>Something went wrong</h1>
      <p>
        {isRouteErrorResponse(error)
          ? `${error.status}: ${error.statusText || error.data}`
          : 'An unexpected error occurred. Please try again.'}
      </p>
      <a className="button" href="/">
        Back to home
      </a>
    </section>
  );
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const shown = forbidden ? (
    <section className="container error-page">
      <h1>403 Forbidden</h1>
      <p>{String(error.data)}</p>
      <a className="button" href="/">
        Back to home
      </a>
    </section>
  ) : (
    content
  );
  if (!rootData)
    return (
      <main id="main" className="main">
        {shown}
      </main>
    );
  return (
    <div className="shell">
      <Header
        settings={rootData.settings}
        theme={rootData.theme}
        user={rootData.user}
        cartCount={rootData.cartCount}
      />
      <main id="main" className="main">
        {shown}
      </main>
      <Footer settings={rootData.settings} />
    </div>
  );
}
