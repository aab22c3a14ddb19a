// A payment link's QR code, drawn on the server with `qrcode`. The SVG has the business's name under
// the code, as text the viewer or printer sets in its own fonts (any script, any size): the one to
// print for a shop counter. The PNG is the code alone, large (1200 px, 10 cm at 300 dpi): a PNG with
// the name would need a font rasteriser on the server, which Bhuktani does not ship.
import type { QRCodeToBufferOptions } from 'qrcode';
import { setNewest } from '../bounded-map.js';
import { escapeHtml } from '../http/html.js';

/** Modules of quiet zone around the code, as the standard asks. */
const QUIET = 4;
export const QR_PNG_WIDTH = 1200;

const qrcode = async () => (await import('qrcode')).default;

/** The dark modules as one SVG path, each row's runs merged into rectangles. */
function modulePath(size: number, dark: (row: number, col: number) => boolean): string {
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; ) {
      if (!dark(row, col)) {
        col++;
        continue;
      }
      let run = 1;
      while (col + run < size && dark(row, col + run)) run++;
      parts.push(`M${col + QUIET} ${row + QUIET}h${run}v1h-${run}z`);
      col += run;
    }
  }
  return parts.join('');
}

/**
 * The code of `url` with `caption` (the business's name) under it, 80 mm wide when printed as it is.
 * The caption's size shrinks for a long name so that it fits the code's width.
 */
export async function qrCodeSvg(url: string, caption: string, title: string): Promise<string> {
  const { modules } = (await qrcode()).create(url, { errorCorrectionLevel: 'M' });
  const width = modules.size + 2 * QUIET;
  const fontSize = Math.min(3.2, (width * 0.92) / (0.58 * Math.max(caption.length, 1)));
  const height = width + fontSize * 2.2;
  const path = modulePath(modules.size, (row, col) => modules.get(row, col) === 1);
  const mm = (units: number) => `${((80 * units) / width).toFixed(1)}mm`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height.toFixed(2)}" width="${mm(width)}" height="${mm(height)}" role="img" aria-label="${escapeHtml(title)}">
<title>${escapeHtml(title)}</title>
<rect width="100%" height="100%" fill="#fff"/>
<path fill="#000" shape-rendering="crispEdges" d="${path}"/>
<text x="${width / 2}" y="${(width + fontSize * 0.9).toFixed(2)}" font-family="system-ui, 'Noto Sans', 'Noto Sans Devanagari', sans-serif" font-size="${fontSize.toFixed(2)}" font-weight="700" text-anchor="middle" fill="#000">${escapeHtml(caption)}</text>
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
