import { type BlogSettings, socialLinkList } from '../../../settings/settings.ts';
import { UploadedImage } from '../UploadedImage.tsx';

/**
 * The writer: avatar, name, bio and links from the settings; the name opens the author's page
 * when there is one. Plain links, so it works on plain post pages.
 */
export function AuthorCard({
  settings,
  name,
  href,
}: {
  settings: Pick<BlogSettings, 'authorName' | 'authorBio' | 'authorProfileImage' | 'socialLinks'>;
  name?: string;
  href?: string;
}) {
  const shownName = name ?? settings.authorName;
  const links = socialLinkList(settings.socialLinks);
  return (
    <section className="author-card card" aria-labelledby="author-card-name">
      <UploadedImage
        className="author-card-avatar"
        src={settings.authorProfileImage ?? '/favicon.svg'}
        variant="card"
        alt=""
        width={96}
        height={96}
        loading="lazy"
      />
      <div className="author-card-body">
        <h2 id="author-card-name" className="author-card-name">
          {href ? <a href={href}>{shownName}</a> : shownName}
        </h2>
        <p className="author-card-bio">{settings.authorBio}</p>
        {links.length > 0 && (
          <ul className="author-card-links">
            {links.map(({ key, label, url }) => (
              <li key={key}>
                <a href={url} rel="me noopener noreferrer" target="_blank">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
