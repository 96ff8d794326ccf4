/**
 * An inline message with the specification's toast title and description. role="alert" for
 * failures (announced at once), role="status" for confirmations.
 */
export function Notice({
  tone,
  title,
  description,
}: {
  tone: 'success' | 'error' | 'info';
  title: string;
  description?: string;
}) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <p className="notice-title">{title}</p>
      {description && <p className="notice-description">{description}</p>}
    </div>
  );
}
