// A CSV download written as it is read: each page of rows goes out as soon as its query answers, so
// memory holds a page or two whatever the export's size (the transaction list now; statements and
// the audit log next). Reading waits while the client is slower than the store (backpressure), and
// stops at the page being read when the client goes away: Fastify destroys the stream, which ends
// the page source.
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { csvLine, type Cell } from './csv.js';

export interface CsvDownload {
  /** Offered to the browser; letters, digits, `.`, `_` and `-` only. */
  filename: string;
  header: string[];
  /** The rows, a page at a time, in the order they are to be written. */
  pages: AsyncIterable<Cell[][]>;
}

const SAFE_FILENAME = /^[\w.-]+$/;

const linesOf = (rows: Cell[][]) => rows.map(csvLine).join('');

export async function sendCsv(reply: FastifyReply, download: CsvDownload): Promise<FastifyReply> {
  if (!SAFE_FILENAME.test(download.filename)) throw new Error(`unsafe CSV file name: ${download.filename}`);
  const pages = download.pages[Symbol.asyncIterator]();
  // The first page is read before the answer starts, so a store that is down gets the usual error
  // answer instead of a 200 cut short.
  const first = await pages.next();
  async function* chunks() {
    try {
      yield csvLine(download.header) + (first.done ? '' : linesOf(first.value));
      if (first.done) return;
      for (;;) {
        // Requests that arrived meanwhile get their turn between two pages.
        await nextTurn();
        const page = await pages.next();
        if (page.done) return;
        yield linesOf(page.value);
      }
    } finally {
      await pages.return?.();
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${download.filename}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(chunks(), { objectMode: false }));
}
