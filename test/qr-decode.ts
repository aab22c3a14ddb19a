// Reading QR codes back as a phone would, with jsQR: from a PNG (decoded by pngjs), or from the SVG
// a payment link serves, drawn into pixels from its path (each `M x y h w v1 h-w z` a run of dark
// modules), 8 pixels a module, on white.
import jsqr from 'jsqr';
import { PNG } from 'pngjs';

// A CommonJS module whose types say `export default`: Node hands ESM its module.exports, which also carries `.default`.
const jsQR = jsqr.default;

export function decodeQrPng(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

const SCALE = 8;

export function decodeQrSvg(svg: string): string | undefined {
  const width = Number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
  const path = /<path[^>]* d="([^"]+)"/.exec(svg)![1];
  const side = width * SCALE;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let row = Number(y) * SCALE; row < (Number(y) + 1) * SCALE; row++) {
      for (let col = Number(x) * SCALE; col < (Number(x) + Number(run)) * SCALE; col++) pixels.fill(0, (row * side + col) * 4, (row * side + col) * 4 + 3);
    }
  }
  return jsQR(pixels, side, side)?.data;
}
