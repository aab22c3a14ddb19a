// Log lines for a person at a terminal: time, level, message, then the fields, one entry a line.
// It reads pino's JSON after pino has redacted it, so a secret pino censors is censored here too;
// the JSON format never passes through this code.

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Every entry has them; the line shows time, level and message in their own places. */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

function field(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** One JSON log entry as a readable line; fields whose value the message already shows are left out. */
export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json.trimEnd();
  }
  const level = Number(entry.level);
  const name = (LEVELS[level] ?? String(entry.level)).padEnd(5);
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  const err = entry.err as { stack?: string } | undefined;
  const fields = Object.entries(entry)
    .filter(([key, value]) => !OMITTED.has(key) && key !== 'err' && !(typeof value === 'string' && msg.includes(value)))
    .map(([key, value]) => `${key}=${field(value)}`);
  const head = colour ? `\x1b[${COLOURS[level] ?? '0'}m${name}\x1b[0m \x1b[1m${msg}\x1b[0m` : `${name} ${msg}`;
  const line = [time, head, ...fields].filter(Boolean).join('  ');
  return err?.stack ? `${line}\n    ${err.stack.replace(/\n/g, '\n    ')}` : line;
}

/** A destination for pino that writes each entry to `out` as a readable line. */
export function prettyStream(out: NodeJS.WritableStream, colour: boolean): { write(chunk: string): void } {
  return { write: (chunk) => void out.write(`${prettyLine(chunk, colour)}\n`) };
}
