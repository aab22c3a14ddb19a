// CSV for spreadsheets (RFC 4180: quoted where needed, CRLF line ends). Text that a spreadsheet
// would run as a formula gets a leading `'`, so an order id chosen by a shop cannot become a formula
// on the merchant's computer: anything starting with `=`, `@`, tab or CR, and anything starting with
// `+` or `-` unless it is a plain word or number (`-zEf0_9A`: our ids are base64url and may start
// with `-`; they must reach a program unchanged, and without brackets or operators they call nothing).

export type Cell = string | number | boolean | null | undefined;

const ALWAYS_FORMULA = /^[=@\t\r]/;
const SIGNED = /^[+-]/;
const PLAIN = /^[+-][\w.-]*$/;

export function isFormulaLike(text: string): boolean {
  return ALWAYS_FORMULA.test(text) || (SIGNED.test(text) && !PLAIN.test(text));
}

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = isFormulaLike(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
