/** Paisa for people: 123456 → `Rs. 1,234.56`. Only at the edge; everything else is whole paisa. */
export function formatRupees(paisa: number): string {
  const sign = paisa < 0 ? '-' : '';
  const abs = Math.abs(paisa);
  const rupees = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}Rs. ${rupees}.${String(abs % 100).padStart(2, '0')}`;
}

/** `1234.56` for 123456 paisa: rupees as a plain number, for CSV files (spreadsheets, the bank's bulk transfer). */
export function rupeesDecimal(paisa: number): string {
  const sign = paisa < 0 ? '-' : '';
  const abs = Math.abs(paisa);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
