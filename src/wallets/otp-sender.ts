// How a live wallet's OTP reaches its owner (OTP_SENDER): an SMS gateway, or the server log for
// development. Sandbox wallets have a published OTP and send nothing.
import type { FastifyBaseLogger } from 'fastify';

export interface OtpToSend {
  mobile: string;
  otp: string;
  /** What the payer reads: the amount, the merchant and the OTP (`otpMessage`). */
  message: string;
  pidx: string;
  expiresAt: Date;
}

/** Delivers a live wallet's OTP; rejects with OtpNotSentError when it could not. */
export interface OtpSender {
  send(otp: OtpToSend): Promise<void>;
}

declare module '../context.js' {
  interface AppContext {
    otp: OtpSender;
  }
}

/** The OTP did not reach the gateway (no answer in time, refused, not 2xx). `reason` never holds the OTP. */
export class OtpNotSentError extends Error {
  constructor(readonly reason: string) {
    super(`the OTP was not sent: ${reason}`);
  }
}

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/** Development: the OTP goes to the server log, where whoever reads the log can use it. */
export function logOtpSender(log: Log): OtpSender {
  return {
    async send({ mobile, otp, message, pidx, expiresAt }) {
      log.info({ mobile, pidx, otp, message, expiresAt }, 'OTP for a live wallet payment');
    },
  };
}

/** Said at start and on every dashboard and console page while OTP_SENDER=log-insecure. */
export const INSECURE_OTP_WARNING = 'OTP_SENDER=log-insecure: live wallet OTPs are written to the server log; whoever reads it can complete payments. Use OTP_SENDER=sms for real money.';

/** The warning pages show under this configuration, if any. */
export function insecureOtpWarning(config: { otpSender: string }): string | undefined {
  return config.otpSender === 'log-insecure' ? INSECURE_OTP_WARNING : undefined;
}
