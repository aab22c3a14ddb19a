// A payment link's QR code, and a provider's on the hosted page, drawn on the server with `qrcode`
// (qr-modules.ts); the codes drawn last are kept by their text. The SVG has the business's name under
// the code, as text the viewer or printer sets in its own fonts (any script, any size): the one to
// print for a shop counter. The PNG is the code alone, large (1200 px, 10 cm at 300 dpi): a PNG with
// the name would need a font rasteriser on the server, which Bhuktani does not ship.
import type { QRCodeToBufferOptions } from 'qrcode';
import { setNewest } from '../bounded-map.js';
import { escapeHtml } from '../http/html.js';
import { qrModules } from './qr-modules.js';

/** Modules of quiet zone around the code, as the standard asks. */
const QUIET = 4;
export const QR_PNG_WIDTH = 1200;

let loaded: typeof import('qrcode') | undefined;
const qrcode = async () => (loaded ??= (await import('qrcode')).default);

/** The codes drawn last, by their text: the size in modules and the dark modules' path. */
const drawnCodes = new Map<string, { size: number; path: string }>();
const DRAWN_CODES_KEPT = 256;

function drawnCode(qr: typeof import('qrcode'), text: string): { size: number; path: string } {
  let code = drawnCodes.get(text);
  if (!code) {
    const { size, modules } = qrModules(qr, text);
    code = { size, path: modulePath(size, modules) };
  }
  setNewest(drawnCodes, text, code, DRAWN_CODES_KEPT);
  return code;
}

/**
 * Draws the code of `text` now, for a page about to show it (a provider's QR, while its attempt is
 * stored): the page then only frames it. Nothing before `qrcode` has loaded once.
 */
export function drawAhead(text: string): void {
  if (!loaded) return void qrcode();
  try {
    drawnCode(loaded, text);
  } catch {
    // A text no code holds: the page, drawing it, fails as it would have.
  }
}

/** The dark modules (1 in `modules`, row by row) as one SVG path, each row's runs merged into rectangles. */
function modulePath(size: number, modules: Uint8Array): string {
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    const at = row * size;
    for (let col = 0; col < size; ) {
      if (!modules[at + col]) {
        col++;
        continue;
      }
      let run = 1;
      while (col + run < size && modules[at + col + run]) run++;
      parts.push(`M${col + QUIET} ${row + QUIET}h${run}v1h-${run}z`);
      col += run;
    }
  }
  return parts.join('');
}

/** The caption's largest and smallest sizes, in modules. */
const CAPTION_SIZE = 3.2;
const CAPTION_SMALLEST = 1.8;
/**
 * How wide a letter of the caption is taken to be, of its size: what bold sans-serif fonts measure
 * in Chromium (0.60–0.68 for a Latin name, 0.54–0.69 for a Devanagari letter with its marks).
 */
const LETTER = 0.68;
const letters = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const guessedWidth = (text: string, size: number) => [...letters.segment(text)].length * LETTER * size;

/** The caption on one line, or on two broken at the space nearest its middle when one would need a small size. */
function captionLines(caption: string, room: number): string[] {
  if (guessedWidth(caption, CAPTION_SIZE) <= room) return [caption];
  const middle = caption.length / 2;
  let at = -1;
  for (let i = caption.indexOf(' '); i !== -1; i = caption.indexOf(' ', i + 1)) if (at === -1 || Math.abs(i - middle) < Math.abs(at - middle)) at = i;
  return at === -1 ? [caption] : [caption.slice(0, at), caption.slice(at + 1)];
}

/**
 * The code of `url` with `caption` (the business's name) under it, 80 mm wide when printed as it is.
 * A long name goes on two lines, as large as they fit. A letter's width is only guessed (the
 * viewer's font sets it), so a line that comes near the edges is given its width (`textLength`):
 * the viewer fits its letters to it, never cuts them.
 */
export async function qrCodeSvg(url: string, caption: string, title: string): Promise<string> {
  const { size, path } = drawnCode(await qrcode(), url);
  const width = size + 2 * QUIET;
  const room = width - 2;
  const lines = captionLines(caption, room);
  const widest = Math.max(...lines.map((line) => guessedWidth(line, 1)), LETTER);
  const fontSize = Math.max(CAPTION_SMALLEST, Math.min(CAPTION_SIZE, room / widest));
  const lineHeight = fontSize * 1.25;
  const height = width + lineHeight * lines.length + fontSize * 0.4;
  const mm = (units: number) => `${((80 * units) / width).toFixed(1)}mm`;
  const text = lines.map((line, i) => {
    const guessed = guessedWidth(line, fontSize);
    const fitted = guessed > room * 0.8 ? ` textLength="${Math.min(room, guessed).toFixed(2)}" lengthAdjust="spacingAndGlyphs"` : '';
    return `<text x="${width / 2}" y="${(width + fontSize * 0.9 + lineHeight * i).toFixed(2)}"${fitted}>${escapeHtml(line)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height.toFixed(2)}" width="${mm(width)}" height="${mm(height)}" role="img" aria-label="${escapeHtml(title)}">
<title>${escapeHtml(title)}</title>
<rect width="100%" height="100%" fill="#fff"/>
<path fill="#000" shape-rendering="crispEdges" d="${path}"/>
<g font-family="system-ui, 'Noto Sans', 'Noto Sans Devanagari', sans-serif" font-size="${fontSize.toFixed(2)}" font-weight="700" text-anchor="middle" fill="#000">
${text.join('\n')}
</g>
</svg>
`;
}

/** The PNGs drawn last, by address: the same bytes every time, and a public address anyone may ask for. */
const drawnPngs = new Map<string, Promise<Buffer>>();
const DRAWN_PNGS_KEPT = 256;

/**
 * The code of `url` alone, as a large PNG: grayscale, each row filtered against the one above
 * (pngjs's default tries every filter on every row and writes RGBA: about twice the time on the
 * event loop, 300 ms here, and twice the bytes; `npx tsx bench/qr-png.ts`). The latest 256 are
 * kept (about 1 MB).
 */
export function qrCodePng(url: string): Promise<Buffer> {
  let png = drawnPngs.get(url);
  if (!png) {
    png = qrcode().then((q) => q.toBuffer(url, { type: 'png', width: QR_PNG_WIDTH, margin: QUIET, errorCorrectionLevel: 'M', rendererOpts: { colorType: 0, filterType: 2 } } as QRCodeToBufferOptions));
    png.catch(() => drawnPngs.delete(url));
  }
  setNewest(drawnPngs, url, png, DRAWN_PNGS_KEPT);
  return png;
}
