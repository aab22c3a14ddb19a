import { pino, type Logger } from 'pino';
import type { Config } from '../config.js';
import { prettyStream } from './pretty-log.js';

// Secrets never reach the log: the Authorization header and cookies are redacted, and bodies (which
// carry MPINs and OTPs on the portal) are never logged.
export const redactedPaths = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

interface LoggedRequest {
  id: string;
  method: string;
  url: string;
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}

export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, stream?: NodeJS.WritableStream): Logger {
  const out = stream ?? process.stdout;
  const destination = config.logFormat === 'pretty' ? prettyStream(out, (out as { isTTY?: boolean }).isTTY === true) : out;
  return pino(
    {
      level: config.logLevel,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: {
        req: (req: LoggedRequest) => ({
          id: req.id,
          method: req.method,
          url: req.url,
          remoteAddress: req.ip,
          // Kept (then censored) only when sent, so the log shows that a credential came, never what it was.
          headers: Object.fromEntries(
            ['user-agent', 'authorization', 'cookie'].filter((h) => req.headers[h] !== undefined).map((h) => [h, req.headers[h]]),
          ),
        }),
      },
    },
    destination,
  );
}
