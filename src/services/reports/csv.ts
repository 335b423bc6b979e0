/** CSV for the conversation export (DESK.md D8): RFC 4180 fields, CRLF lines, and a guard against formula injection. */

/** Characters that make a spreadsheet read a cell as a formula (or split it): such a cell gets a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: null/undefined → empty; a formula-looking start gets `'`; quoted when it holds `"`, `,`, CR or LF. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  if (/[",\r\n]/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** One record, ending with CRLF. */
export function csvLine(values: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The UTF-8 byte order mark the file starts with (so spreadsheet programs read UTF-8). */
export const BOM = '\uFEFF';
