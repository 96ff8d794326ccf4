import { socialLinkList } from '../../settings/settings.ts';
import { UploadedImage } from '../components/UploadedImage.tsx';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/blog.css';
import type { Route } from './+types/about';

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

const SKILLS = [
  'Software architecture',
  'TypeScript & Node.js',
  'Product design',
  'Technical writing',
  'Mentoring',
  'Public speaking',
];
const INTERESTS = ['Open source', 'Typography', 'Hiking', 'Photography', 'Podcasting', 'Cooking'];

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getApp(context);
  return { settings: await services.settings.get() };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `About — ${loaderData?.settings.title ?? 'Penstand'}` },
  { name: 'description', content: loaderData?.settings.authorBio ?? '' },
];

export default function About({ loaderData }: Route.ComponentProps) {
  const { settings } = loaderData;
  return (
    <section className="container about-page">
      <header className="about-header">
        <UploadedImage
          className="about-avatar"
          src={settings.authorProfileImage ?? '/favicon.svg'}
          variant="card"
          alt={`Portrait of ${settings.authorName}`}
          width={160}
          height={160}
        />
        <div>
          <h1>{settings.authorName}</h1>
          <p className="hero-tagline">{settings.description}</p>
        </div>
      </header>
      <div className="about-grid">
        <div>
          <h2>My Story</h2>
          <p>{settings.authorBio}</p>
          <p>
            I started this blog to write down what I learn while building products, and to share the stories
            that happen around the work: careers, tools, travel and the people I meet along the way.
          </p>
        </div>
        <div className="card">
          <h2>Skills</h2>
          <ul className="pill-list">
            {SKILLS.map((s) => (
              <li key={s} className="badge">
                {s}
              </li>
            ))}
          </ul>
          <h2>Interests</h2>
          <ul className="pill-list">
            {INTERESTS.map((s) => (
              <li key={s} className="badge">
                {s}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="about-actions">
        {socialLinkList(settings.socialLinks).map(({ key, label, url }) => (
          <a
            key={key}
            className="button button-secondary"
            href={url}
            rel="me noopener noreferrer"
            target="_blank"
          >
            {label}
          </a>
        ))}
        {settings.contactEmail && (
          <a className="button" href={`mailto:${settings.contactEmail}`}>
            Get In Touch
          </a>
        )}
      </div>
    </section>
  );
}
