// EMVCo merchant-presented QR messages: the CRC and the data objects, against published messages.
import { describe, expect, it } from 'vitest';
import { buildQrMessage, crc16, parseQrMessage, readDataObjects } from './merchant-qr.js';

// "Technical Specification Document – Fonepay Merchant Integration through Device for Dynamic QR"
// v1.1 (July 2024), the QR request's success response `qrMessage`. Its Markdown transcription prints
// tag 62 as `…07032292…` (a line break of the PDF lost): that one does not hold together.
const FONEPAY_SAMPLE = '000201010212153137910524005204460000000NBQM:29226400011fonepay.com0104NBQM020329206061367695204541153035245402145802NP5911Fonepaytest6008District62210703292021098418456336304d3f7';
const FONEPAY_TRANSCRIBED = '000201010212153137910524005204460000000NBQM:29226400011fonepay.com0104NBQM020329206061367695204541153035245402145802NP5911Fonepaytest6008District622107032292021098418456336304d3f7';
// phannaly/emv-qr-code (README, "Merchant Presented Mode decode"): an EMVCo library's decoding example, uppercase CRC.
const EMV_LIBRARY_SAMPLE = '00020101021252044131153137210116372101160123456789ABCDE6010Phnom Penh5913Merchant Shop5802KH540510.005303840622501081234567802090124444446304A0BA';

describe('EMVCo merchant-presented QR', () => {
  it('computes CRC-16/CCITT-FALSE (the CRC catalogue’s check value of "123456789" is 29B1)', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('reads Fonepay’s published dynamic QR, its CRC written in lowercase', () => {
    const objects = parseQrMessage(FONEPAY_SAMPLE)!;
    expect(objects).toBeDefined();
    expect(Object.fromEntries(objects)).toMatchObject({ '00': '01', '01': '12', '53': '524', '54': '14', '58': 'NP', '59': 'Fonepaytest', '60': 'District', '63': 'd3f7' });
    expect(Object.fromEntries(readDataObjects(objects.get('26')!)!)).toEqual({ '00': 'fonepay.com', '01': 'NBQM', '02': '292', '06': '136769' });
    expect(parseQrMessage(FONEPAY_TRANSCRIBED)).toBeUndefined();
  });

  it('reads an EMVCo library’s published message, its CRC in uppercase', () => {
    expect(parseQrMessage(EMV_LIBRARY_SAMPLE)?.get('59')).toBe('Merchant Shop');
  });

  it('refuses a message with a wrong CRC, a broken length, or another start', () => {
    expect(parseQrMessage(FONEPAY_SAMPLE.replace(/d3f7$/, 'd3f8'))).toBeUndefined();
    expect(parseQrMessage(FONEPAY_SAMPLE.replace('5911Fonepaytest', '5911Fonepaytesx'))).toBeUndefined();
    expect(parseQrMessage(FONEPAY_SAMPLE.replace('5911Fonepaytest', '5912Fonepaytest'))).toBeUndefined();
    expect(parseQrMessage(FONEPAY_SAMPLE.slice(6))).toBeUndefined();
    expect(parseQrMessage(undefined)).toBeUndefined();
  });

  it('builds the published message again from its data objects', () => {
    const objects = parseQrMessage(FONEPAY_SAMPLE)!;
    const rebuilt = buildQrMessage(
      [...objects].filter(([id]) => id !== '00' && id !== '63'),
      { lowercaseCrc: true },
    );
    expect(rebuilt).toBe(FONEPAY_SAMPLE);
    expect(buildQrMessage([['01', '12'], ['62', [['05', 'ABC']]]])).toMatch(/^00020101021262070503ABC6304[0-9A-F]{4}$/);
  });
});
