// OTP_SENDER at start-up: the sender it names, and the check that live OTPs are not left to the log.
import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import type { Queryable } from '../db/db.js';
import { INSECURE_OTP_WARNING, logOtpSender, OtpNotSentError, type Log, type OtpSender } from './otp-sender.js';
import { smsOtpSender } from './sms-gateway.js';
import { liveWalletExists } from './wallet-store.js';

/**
 * `log` is the default so that a sandbox-only install starts with no configuration; it never writes
 * a live OTP. A store that holds a live wallet refuses to start on it, and a live wallet created
 * while the server runs (the CLI on PostgreSQL) gets no OTP until the server restarts configured.
 */
function refusingOtpSender(log: Log): OtpSender {
  return {
    async send({ pidx }) {
      log.warn({ pidx }, 'OTP not sent: a live wallet was created after start and OTP_SENDER is "log"; restart with OTP_SENDER=sms (or log-insecure)');
      throw new OtpNotSentError('OTP_SENDER=log does not deliver live OTPs');
    },
  };
}

/** The sender OTP_SENDER names, after the start-up check that `log` is not used with live wallets. */
export async function otpSenderFor(config: Pick<Config, 'otpSender' | 'smsGateway'>, db: Queryable, log: Log): Promise<OtpSender> {
  if (config.otpSender === 'sms') return smsOtpSender(config.smsGateway!, log);
  if (config.otpSender === 'log-insecure') {
    log.warn(INSECURE_OTP_WARNING);
    return logOtpSender(log);
  }
  if (await liveWalletExists(db)) {
    throw new ConfigError(
      'the store holds live wallets and OTP_SENDER is "log", which would write their OTPs to the log: set OTP_SENDER=sms with SMS_GATEWAY_URL, or OTP_SENDER=log-insecure to accept that (development only)',
    );
  }
  return refusingOtpSender(log);
}

/** The sender `choosing` settles to, usable before it has (the server builds its routes meanwhile). */
export function senderOnceChosen(choosing: Promise<OtpSender>): OtpSender {
  return { send: async (otp) => (await choosing).send(otp) };
}
