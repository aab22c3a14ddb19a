// The modules of a QR code, drawn by `qrcode` but with two of its choices made here, each the most of
// a QR page's CPU in the service (about 0.3 and 0.45 ms of a payment's QR):
// - The segments. qrcode finds the smallest split of a text into numeric, alphanumeric and byte
//   segments as a shortest path over a graph of objects. Here the same smallest split comes from a
//   walk over the characters keeping, for each mode, the cheapest encoding that ends in it (Nayuki's
//   way of switching modes optimally): as small a code (qr-modules.test.ts).
// - The mask. ISO/IEC 18004 has the encoder score the eight masks and keep the lowest penalty; qrcode
//   does so through its matrix's get and xor. This scores the same masks by the same rules over flat
//   arrays, from the code qrcode builds with mask 0, and gives the very modules qrcode would have
//   chosen for the same segments (tested module for module).
import type { BitMatrix, QRCode, QRCodeSegment } from 'qrcode';

type Mode = 'numeric' | 'alphanumeric' | 'byte';
const MODES: Mode[] = ['numeric', 'alphanumeric', 'byte'];
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

/** A character's cost in a mode, in sixths of a bit (a digit 10/3 bits, an alphanumeric 11/2, a byte 8); Infinity where it cannot go. */
function charCost(mode: Mode, char: string): number {
  if (mode === 'numeric') return char >= '0' && char <= '9' ? 20 : Infinity;
  if (mode === 'alphanumeric') return ALPHANUMERIC.includes(char) ? 33 : Infinity;
  return Buffer.byteLength(char) * 48;
}

/** A segment's header in sixths of a bit: its mode (4 bits) and its character count, as long as the version asks. */
function headerCost(mode: Mode, version: number): number {
  const group = version < 10 ? 0 : version < 27 ? 1 : 2;
  const countBits = { numeric: [10, 12, 14], alphanumeric: [9, 11, 13], byte: [8, 16, 16] }[mode][group];
  return (4 + countBits) * 6;
}

/** The smallest split of `message` into segments for a code of `version`'s size group. */
export function segmentsOf(message: string, version = 1): QRCodeSegment[] {
  const chars = [...message];
  if (chars.length === 0) return [{ data: Buffer.alloc(0), mode: 'byte' }];
  const heads = MODES.map((mode) => headerCost(mode, version));
  // from[i][m]: the mode of character i when the encoding of characters 0..i ends in mode m.
  const from: number[][] = [];
  let costs = [...heads];
  for (const char of chars) {
    const next = MODES.map((mode, m) => costs[m] + charCost(mode, char));
    const modes = [0, 1, 2];
    // Or end the segment here and start one of another mode.
    for (let to = 0; to < 3; to++) {
      for (let m = 0; m < 3; m++) {
        const switched = Math.ceil(next[m] / 6) * 6 + heads[to];
        if (next[m] !== Infinity && switched < next[to]) {
          next[to] = switched;
          modes[to] = m;
        }
      }
    }
    from.push(modes);
    costs = next;
  }
  const modeOf: number[] = new Array(chars.length);
  let mode = costs.indexOf(Math.min(...costs));
  for (let i = chars.length - 1; i >= 0; i--) {
    mode = from[i][mode];
    modeOf[i] = mode;
  }
  const segments: QRCodeSegment[] = [];
  for (let i = 0; i < chars.length; ) {
    let j = i + 1;
    while (j < chars.length && modeOf[j] === modeOf[i]) j++;
    const text = chars.slice(i, j).join('');
    segments.push(MODES[modeOf[i]] === 'byte' ? { data: Buffer.from(text), mode: 'byte' } : { data: text, mode: MODES[modeOf[i]] as 'numeric' | 'alphanumeric' });
    i = j;
  }
  return segments;
}

/**
 * The format information of level M with each mask: the level and the mask, BCH-coded and masked
 * (15 bits, the standard's table of format information; thonky.com's QR tutorial lists it too).
 */
const FORMAT_M = [0x5412, 0x5125, 0x5e7c, 0x5b4b, 0x45f9, 0x40ce, 0x4f97, 0x4aa0];

/** The standard's eight mask conditions: where a data module is flipped. */
const MASKS: ((row: number, col: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
];

/** Each mask as a flat array for a size, drawn once per size. */
const maskArrays = new Map<number, Uint8Array[]>();
function masksOf(size: number): Uint8Array[] {
  let arrays = maskArrays.get(size);
  if (!arrays) {
    arrays = MASKS.map((flips) => {
      const a = new Uint8Array(size * size);
      for (let row = 0; row < size; row++) for (let col = 0; col < size; col++) a[row * size + col] = flips(row, col) ? 1 : 0;
      return a;
    });
    maskArrays.set(size, arrays);
  }
  return arrays;
}

/** The format information's 15 bits written where qrcode writes them, and its one fixed dark module. */
function writeFormat(m: Uint8Array, size: number, bits: number): void {
  for (let i = 0; i < 15; i++) {
    const bit = (bits >> i) & 1;
    m[(i < 6 ? i : i < 8 ? i + 1 : size - 15 + i) * size + 8] = bit;
    m[8 * size + (i < 8 ? size - i - 1 : i < 9 ? 15 - i : 14 - i)] = bit;
  }
  m[(size - 8) * size + 8] = 1;
}

/** The standard's four penalties, weighted 3, 3, 40 and 10, scored as qrcode scores them. */
function penalty(m: Uint8Array, size: number): number {
  let points = 0;
  let blocks = 0;
  let finders = 0;
  for (let a = 0; a < size; a++) {
    // Runs of five or more alike, and 1:1:3:1:1 finder-like patterns with four light beside, along row a and column a.
    let rowRun = 0;
    let colRun = 0;
    let rowLast = -1;
    let colLast = -1;
    let rowBits = 0;
    let colBits = 0;
    for (let b = 0; b < size; b++) {
      const r = m[a * size + b];
      const c = m[b * size + a];
      if (r === rowLast) rowRun++;
      else {
        if (rowRun >= 5) points += rowRun - 2;
        rowLast = r;
        rowRun = 1;
      }
      if (c === colLast) colRun++;
      else {
        if (colRun >= 5) points += colRun - 2;
        colLast = c;
        colRun = 1;
      }
      rowBits = ((rowBits << 1) & 0x7ff) | r;
      colBits = ((colBits << 1) & 0x7ff) | c;
      if (b >= 10) {
        if (rowBits === 0x5d0 || rowBits === 0x05d) finders++;
        if (colBits === 0x5d0 || colBits === 0x05d) finders++;
      }
      // 2×2 blocks of one colour.
      if (a < size - 1 && b < size - 1) {
        const sum = r + m[a * size + b + 1] + m[(a + 1) * size + b] + m[(a + 1) * size + b + 1];
        if (sum === 0 || sum === 4) blocks++;
      }
    }
    if (rowRun >= 5) points += rowRun - 2;
    if (colRun >= 5) points += colRun - 2;
  }
  let dark = 0;
  for (let k = 0; k < m.length; k++) dark += m[k];
  const balance = Math.abs(Math.ceil((dark * 100) / m.length / 5) - 10);
  return points + blocks * 3 + finders * 40 + balance * 10;
}

/**
 * The modules (1 dark, row by row) of `message` at error correction level M with the mask of lowest
 * penalty, as `qrcode.create(segments, { errorCorrectionLevel: 'M' })` would have them for the
 * segments it is split into here.
 */
export function qrModules(qrcode: { create(segments: QRCodeSegment[], options: object): QRCode }, message: string): { size: number; modules: Uint8Array; segments: QRCodeSegment[] } {
  let segments = segmentsOf(message);
  let code = qrcode.create(segments, { errorCorrectionLevel: 'M', maskPattern: 0 });
  // Past version 9 the segments' headers are longer: split again for the size it came to.
  if (code.version >= 10) code = qrcode.create((segments = segmentsOf(message, code.version)), { errorCorrectionLevel: 'M', maskPattern: 0 });
  const { size, data, reservedBit } = code.modules as BitMatrix;
  const masks = masksOf(size);
  // The data modules as they are before any mask.
  const unmasked = new Uint8Array(data);
  for (let k = 0; k < unmasked.length; k++) if (!reservedBit[k]) unmasked[k] ^= masks[0][k];
  let best = data;
  let lowest = Infinity;
  for (let p = 0; p < 8; p++) {
    const candidate = new Uint8Array(unmasked);
    const mask = masks[p];
    for (let k = 0; k < candidate.length; k++) if (!reservedBit[k]) candidate[k] ^= mask[k];
    writeFormat(candidate, size, FORMAT_M[p]);
    const points = penalty(candidate, size);
    if (points < lowest) [best, lowest] = [candidate, points];
  }
  return { size, modules: best, segments };
}
