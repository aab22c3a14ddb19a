import type { FastifyBaseLogger } from 'fastify';

/** Delivers a live wallet's OTP to its owner. Plug in an SMS gateway here. */
export interface OtpSender {
  send(message: { mobile: string; otp: string; pidx: string; expiresAt: Date }): Promise<void>;
}

/** The default: the OTP goes to the server log, where an operator of a self-hosted install can read it. */
export function logOtpSender(log: Pick<FastifyBaseLogger, 'info'>): OtpSender {
  return {
    async send({ mobile, otp, pidx, expiresAt }) {
      log.info({ mobile, pidx, otp, expiresAt }, 'OTP for a live wallet payment');
    },
  };
}
