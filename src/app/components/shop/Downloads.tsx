import type { DownloadGrant } from '../../../orders/downloads.ts';
import { formatDate } from '../../admin/format.ts';

/**
 * An order's download links with what is left of each (customer pages); nothing before it is paid.
 * Within a list of orders (the Account page) it is a part of its order's card, under its own id.
 */
export function Downloads({ downloads, inOrder }: { downloads: DownloadGrant[]; inOrder?: number }) {
  if (downloads.length === 0) return null;
  const headingId = inOrder ? `order-${inOrder}-downloads` : 'order-downloads';
  const Heading = inOrder ? 'h4' : 'h2';
  return (
    <section className={inOrder ? 'order-downloads' : 'card'} aria-labelledby={headingId}>
      <Heading id={headingId}>Your downloads</Heading>
      <ul className="download-list">
        {downloads.map((d) => {
          const left = d.limit - d.downloads;
          const usable = !d.revoked && left > 0 && Date.parse(d.expiresAt) > Date.now();
          return (
            <li key={d.id}>
              {usable ? (
                <a href={d.path} download={d.fileName}>
                  {d.name}
                </a>
              ) : (
                <span>{d.name}</span>
              )}{' '}
              <span className="muted">
                {d.revoked
                  ? 'No longer available'
                  : `${left} of ${d.limit} downloads left, until ${formatDate(d.expiresAt)}`}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
