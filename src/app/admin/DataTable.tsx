import type { ReactNode } from 'react';

/** A row of a DataTable: its key, its header cell, then a cell a column. */
export type DataRow = { key: string | number; head: ReactNode; cells: ReactNode[] };

/** A report's table whose first column heads each row (a day, a post, a product). */
export function DataTable({
  caption,
  columns,
  rows,
}: {
  /** For screen readers, where no heading names the table already. */
  caption?: string;
  /** The row headers' column first. */
  columns: string[];
  rows: DataRow[];
}) {
  return (
    <table className="admin-table">
      {caption ? <caption className="visually-hidden">{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.head}</th>
            {row.cells.map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
