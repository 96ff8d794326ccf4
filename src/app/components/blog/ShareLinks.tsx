import { useEffect, useState } from 'react';
import { BLOG_MESSAGES } from '../../../blog/messages.ts';
import type { SocialLinks } from '../../../settings/settings.ts';
import { Toaster, type ToastMessage } from '../Toaster.tsx';

/** The networks of the settings that take a link to share, and where. */
const SHARE_TARGETS: {
  key: keyof SocialLinks;
  label: string;
  url: (link: string, title: string) => string;
}[] = [
  {
    key: 'twitter',
    label: 'Twitter',
    url: (link, title) =>
      `https://twitter.com/intent/tweet?url=${encodeURIComponent(link)}&text=${encodeURIComponent(title)}`,
  },
  {
    key: 'linkedin',
    label: 'LinkedIn',
    url: (link) => `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(link)}`,
  },
];

/** The share links of a post, plain links with no tracking. */
function shareLinks(
  link: string,
  title: string,
  social: SocialLinks,
): { key: string; label: string; href: string }[] {
  return [
    {
      key: 'email',
      label: 'Email',
      href: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(link)}`,
    },
    ...SHARE_TARGETS.filter((target) => social[target.key]).map((target) => ({
      key: target.key,
      label: target.label,
      href: target.url(link, title),
    })),
  ];
}

/**
 * Copy link, email and the networks of the settings. The copy button needs a script: it stays
 * hidden until one runs (React here, PLAIN_PAGE_SCRIPT on a plain post page), so a reader without
 * JavaScript never meets a button that does nothing.
 */
export function ShareLinks({ link, title, social }: { link: string; title: string; social: SocialLinks }) {
  const [scripted, setScripted] = useState(false);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  useEffect(() => setScripted(true), []);
  return (
    <section className="share" aria-labelledby="share-heading">
      <h2 id="share-heading" className="share-heading">
        {BLOG_MESSAGES.share}
      </h2>
      <ul className="share-links">
        <li>
          <button
            type="button"
            className="button button-small button-secondary share-copy"
            data-url={link}
            data-done={BLOG_MESSAGES.linkCopied}
            data-failed={BLOG_MESSAGES.copyFailed}
            hidden={!scripted}
            onClick={() =>
              navigator.clipboard.writeText(link).then(
                () => setToast({ title: BLOG_MESSAGES.linkCopied }),
                () => setToast({ title: BLOG_MESSAGES.copyFailed, type: 'error' }),
              )
            }
          >
            {BLOG_MESSAGES.copyLink}
          </button>
        </li>
        {shareLinks(link, title, social).map(({ key, label, href }) => (
          <li key={key}>
            <a
              className="button button-small button-secondary"
              href={href}
              {...(key === 'email' ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
      {scripted && toast && <Toaster toast={toast} />}
    </section>
  );
}
