// `npx tsx bench/qr-png.ts`: drawing a payment link's QR PNG (src/payment-links/qr-code.ts) against
// the reference measured in the same run, qrcode's PNG with pngjs's defaults (RGBA, every filter
// tried on every row), as it was drawn before 2026-11-26. Not yet part of `npm run bench`'s report.
import QRCode from 'qrcode';
import { QR_PNG_WIDTH, qrCodePng } from '../src/payment-links/qr-code.js';

const ROUNDS = Number(process.env.QR_ROUNDS ?? 15);

async function medianMs(draw: (url: string) => Promise<Buffer>): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    // A new address each round: the service keeps what it drew, and the first drawing is measured.
    const url = `https://pay.example.com/l/${Date.now().toString(36)}${i}bench`;
    const began = performance.now();
    bytes = (await draw(url)).length;
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], bytes };
}

const reference = (url: string) => QRCode.toBuffer(url, { type: 'png', width: QR_PNG_WIDTH, margin: 4, errorCorrectionLevel: 'M' });
// Alternated, so that neither side gets a quieter moment of the machine.
const refs: number[] = [];
const ours: number[] = [];
let refBytes = 0;
let ourBytes = 0;
for (let round = 0; round < 3; round++) {
  const r = await medianMs(reference);
  const o = await medianMs(qrCodePng);
  refs.push(r.ms);
  ours.push(o.ms);
  [refBytes, ourBytes] = [r.bytes, o.bytes];
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
const [ref, our] = [median(refs), median(ours)];
console.log(`QR PNG, ${QR_PNG_WIDTH} px, median of ${ROUNDS} drawings × 3 alternated rounds:`);
console.log(`  reference (pngjs defaults): ${ref.toFixed(1)} ms, ${refBytes} bytes`);
console.log(`  qrCodePng (first drawing):  ${our.toFixed(1)} ms, ${ourBytes} bytes`);
console.log(`  ratio: ${(our / ref).toFixed(2)} of the reference's time, ${(ourBytes / refBytes).toFixed(2)} of its size`);
