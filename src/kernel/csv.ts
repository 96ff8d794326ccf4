/**
 * CSV both ways (RFC 4180): cells written so a spreadsheet opens them safely, and files read
 * with quoted fields, doubled quotes, line breaks inside quotes, CRLF or LF, and a leading BOM.
 */

/**
 * One CSV cell. Cells a spreadsheet would read as a formula (= + - @, and tab or carriage
 * return that some programs strip first) get a leading quote; quotes are doubled.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: readonly (readonly string[])[]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** A record and the line of the file it starts on (a quoted field may span lines). */
export type CsvRecord = { line: number; fields: string[] };

/**
 * Reads CSV leniently, as spreadsheets write it: a stray quote inside an unquoted field is kept
 * as a character, and an unclosed quote runs to the end of the file rather than failing.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStart = true;
  let line = 1;
  let recordLine = 1;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
        field += c;
      }
    } else if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      fieldStart = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push({ line: recordLine, fields });
      fields = [];
      field = '';
      fieldStart = true;
      recordLine = ++line;
    } else {
      field += c;
      fieldStart = false;
    }
  }
  // The last record, when the file does not end with a line break.
  if (fields.length > 0 || !fieldStart) {
    fields.push(field);
    records.push({ line: recordLine, fields });
  }
  return records;
}
