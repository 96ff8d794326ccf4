/** An order's invoice and credit notes as links to their PDFs (base: the order's path or the admin API's). */
export function OrderDocuments({
  base,
  query = '',
  documents,
}: {
  base: string;
  query?: string;
  documents: { number: string; kind: 'invoice' | 'credit-note' }[];
}) {
  if (documents.length === 0) return null;
  return (
    <ul className="order-documents">
      {documents.map((d) => (
        <li key={d.number}>
          <a
            href={`${base}/${d.kind === 'invoice' ? 'invoice.pdf' : `credit-notes/${d.number}.pdf`}${query}`}
          >
            {d.kind === 'invoice' ? 'Invoice' : 'Credit note'} {d.number} (PDF)
          </a>
        </li>
      ))}
    </ul>
  );
}
