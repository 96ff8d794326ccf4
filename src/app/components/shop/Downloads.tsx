import type { DownloadGrant } from '../../../orders/downloads.ts';
import { formatDate } from '../../admin/format.ts';

/** An order's download links with what is left of each (customer pages); nothing before it is paid. */
export function Downloads({ downloads }: { downloads: DownloadGrant[] }) {
  if (downloads.length === 0) return null;
  return (
    <section className="card" aria-labelledby="order-downloads">
      <h2 id="order-downloads">Your downloads</h2>
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
