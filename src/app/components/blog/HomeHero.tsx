import type { BlogSettings } from '../../../settings/settings.ts';
import { UploadedImage } from '../UploadedImage.tsx';

/**
 * The writer's introduction at the top of the home page, all from the settings: avatar, blog
 * title, the optional short line, the description and who writes here.
 */
export function HomeHero({
  settings,
}: {
  settings: Pick<
    BlogSettings,
    'title' | 'description' | 'homeHeadline' | 'authorName' | 'authorProfileImage'
  >;
}) {
  return (
    <section className="hero home-hero" aria-labelledby="home-title">
      <div className="container home-hero-inner">
        {settings.authorProfileImage && (
          <UploadedImage
            className="home-hero-avatar"
            src={settings.authorProfileImage}
            variant="card"
            alt=""
            width={112}
            height={112}
          />
        )}
        <div className="home-hero-text">
          <h1 id="home-title">{settings.title}</h1>
          {settings.homeHeadline && <p className="home-hero-headline">{settings.homeHeadline}</p>}
          <p className="hero-tagline">{settings.description}</p>
          <p className="home-hero-byline muted">
            By <a href="/about">{settings.authorName}</a>
          </p>
        </div>
      </div>
    </section>
  );
}
