// EMVCo's merchant-presented QR message (EMV QR Code Specification for Payment Systems, Merchant-
// Presented Mode), the format of Fonepay's `qrMessage` and of any EMVCo QR a bank app pays: data objects of a two-digit ID, a two-digit
// length and the value, beginning with the payload format indicator `000201` and ending with the CRC
// object `6304` and four hex digits: CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no
// reflection, no final XOR) over everything before those four digits. Written from the
// specification, tested against published messages (merchant-qr.test.ts); the simulator builds with it,
// the connector reads what Fonepay sent with it.

export type DataObjects = [id: string, value: string | DataObjects][];

/** CRC-16/CCITT-FALSE of the text's bytes, as four uppercase hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function encode(objects: DataObjects): string {
  return objects
    .map(([id, value]) => {
      const text = typeof value === 'string' ? value : encode(value);
      if (!/^\d{2}$/.test(id) || text.length === 0 || text.length > 99) throw new Error(`data object ${id} cannot be written (length ${text.length})`);
      return `${id}${String(text.length).padStart(2, '0')}${text}`;
    })
    .join('');
}

/**
 * The message of `objects` (without 00 and 63, which this adds): `000201`, the objects in order,
 * then `6304` and the CRC, in lowercase hex when `lowercaseCrc` (as Fonepay writes it).
 */
export function buildQrMessage(objects: DataObjects, options: { lowercaseCrc?: boolean } = {}): string {
  const body = `${encode([['00', '01'], ...objects])}6304`;
  const crc = crc16(body);
  return body + (options.lowercaseCrc ? crc.toLowerCase() : crc);
}

/** The data objects of a run of them, each value as text; undefined when the run is not well formed. */
export function readDataObjects(text: string): Map<string, string> | undefined {
  const objects = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const length = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(length) || objects.has(id)) return undefined;
    const end = at + 4 + Number(length);
    if (end > text.length) return undefined;
    objects.set(id, text.slice(at + 4, end));
    at = end;
  }
  return objects;
}

/**
 * A QR message's top-level data objects, when it is well formed: it starts with `000201`, every
 * object's length holds, and it ends with `6304` and the CRC (either case) of everything before it.
 */
export function parseQrMessage(message: unknown): Map<string, string> | undefined {
  if (typeof message !== 'string' || message.length > 512 || !message.startsWith('000201')) return undefined;
  const objects = readDataObjects(message);
  if (!objects || !message.endsWith(`6304${objects.get('63') ?? ''}`) || !/^[0-9A-Fa-f]{4}$/.test(objects.get('63') ?? '')) return undefined;
  if (crc16(message.slice(0, -4)) !== objects.get('63')!.toUpperCase()) return undefined;
  return objects;
}
