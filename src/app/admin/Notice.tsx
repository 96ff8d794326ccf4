/** The SPEC's toast texts shown inline until the shared toast system arrives. */
export function Notice({
  result,
}: {
  result: { ok: boolean; title: string; message?: string } | null | undefined;
}) {
  return (
    <div className="admin-notice-region" role={result && !result.ok ? 'alert' : 'status'}>
      {result ? (
        <p className={result.ok ? 'admin-notice' : 'admin-notice admin-notice-error'}>
          <strong>{result.title}</strong>
          {result.message ? <span> {result.message}</span> : null}
        </p>
      ) : null}
    </div>
  );
}
