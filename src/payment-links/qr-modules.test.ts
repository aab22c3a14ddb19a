// A QR's modules as drawn here: the mask is qrcode's own choice for the same segments, module for
// module; the segments make as small a code as qrcode's optimal split for Fonepay's QR messages; and
// every code reads back, as a phone reads it, to the very message.
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { buildQrMessage } from '../protocols/emvco/merchant-qr.js';
import { decodeQrSvg } from '../../test/qr-decode.js';
import { qrCodeSvg } from './qr-code.js';
import { qrModules } from './qr-modules.js';

function randomText(length: number, alphabet: string): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
  return text;
}

/** A QR message in Fonepay's layout, of an amount and names of every length. */
const fonepayMessage = (n: number) =>
  buildQrMessage([
    ['01', '12'],
    ['26', [['00', 'fonepay.com'], ['01', `${1000 + n * 37}`], ['02', '101']]],
    ['52', '5999'],
    ['53', '524'],
    ['54', `${Math.floor(Math.random() * 10 ** (1 + (n % 7)))}.${String(n % 100).padStart(2, '0')}`],
    ['58', 'NP'],
    ['59', randomText(3 + (n % 22), 'ABCDEFGH ijkl')],
    ['60', 'Kathmandu'],
    ['62', [['05', randomText(17, 'abcXYZ0123456789')], ['02', `98${randomText(8, '0123456789')}`]]],
  ]);

const TEXTS = { digits: '0123456789', alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:', address: 'https://pay.example.com/l/abcdefghijklmnopqrstuvwxyz0123456789?x=ँनेपाली' };

describe("a QR's modules", () => {
  it('take the mask qrcode chooses for the same segments, module for module, whatever the text: every version and all eight masks met', () => {
    const masks = new Set<number>();
    const alphabets = Object.values(TEXTS);
    for (let n = 0; n < 300; n++) {
      const message = n % 2 ? fonepayMessage(n) : randomText(1 + ((n * 7) % 600), alphabets[n % 3]);
      const { size, modules, segments } = qrModules(QRCode, message);
      const expected = QRCode.create(segments, { errorCorrectionLevel: 'M' });
      masks.add(expected.maskPattern as number);
      expect(size).toBe(expected.modules.size);
      expect(Buffer.from(modules).equals(Buffer.from(expected.modules.data)), message).toBe(true);
    }
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("are as small a code as qrcode's own smallest split makes, whatever the text", () => {
    const alphabets = Object.values(TEXTS);
    for (let n = 0; n < 400; n++) {
      const message = n % 2 ? fonepayMessage(n) : randomText(1 + ((n * 13) % 900), alphabets[n % 3]);
      const ours = QRCode.create(qrModules(QRCode, message).segments, { errorCorrectionLevel: 'M' }).version;
      expect(ours, message).toBeLessThanOrEqual(QRCode.create(message, { errorCorrectionLevel: 'M' }).version);
    }
  });

  it('read back to the very message', async () => {
    for (const message of [fonepayMessage(1), fonepayMessage(6), '12345678', 'https://pay.example.com/l/tea-house?amount=100', randomText(300, TEXTS.alphanumeric)]) {
      expect(decodeQrSvg(await qrCodeSvg(message, 'Tea House', 'Pay Tea House'))).toBe(message);
    }
  });
});
