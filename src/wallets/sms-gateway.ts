// OTP_SENDER=sms: one HTTP request per OTP to a generic SMS gateway, shaped by SMS_GATEWAY_* (the
// URL, the method, an Authorization header, a body template). Nothing of the request (its body or
// its URL, which may carry the message) is ever logged: only the outcome.
import type { FastifyBaseLogger } from 'fastify';
import type { SmsGateway } from '../config.js';
import { maskMobile } from '../transactions/transaction-record.js';
import { OtpNotSentError, type OtpSender } from './otp-sender.js';

type Escape = (value: string) => string;

/** A value inside a JSON string literal: quotes, backslashes and control characters escaped. */
const jsonEscape: Escape = (value) => JSON.stringify(value).slice(1, -1);
/** A value of application/x-www-form-urlencoded (and of a URL's query): percent-encoded. */
const formEscape: Escape = (value) => encodeURIComponent(value);

function fill(template: string, values: { mobile: string; message: string }, escape: Escape): string {
  // One pass, so a message that happens to contain "{mobile}" is not replaced again.
  return template.replace(/\{(mobile|message)\}/g, (_all, name: 'mobile' | 'message') => escape(values[name]));
}

/** The request for one message: the URL's placeholders percent-encoded, the body's escaped for its type. */
export function smsRequest(gateway: SmsGateway, values: { mobile: string; message: string }): { url: string; init: RequestInit } {
  const headers: Record<string, string> = {};
  if (gateway.auth) headers.authorization = gateway.auth;
  const hasBody = gateway.method !== 'GET';
  if (hasBody) headers['content-type'] = gateway.contentType;
  const body = hasBody ? fill(gateway.body, values, gateway.contentType === 'application/json' ? jsonEscape : formEscape) : undefined;
  return { url: fill(gateway.url, values, formEscape), init: { method: gateway.method, headers, body, redirect: 'manual' } };
}

/** Why a send failed, in words that hold neither the URL nor the body. */
function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code ? `connection failed (${cause.code})` : 'connection failed';
}

export function smsOtpSender(gateway: SmsGateway, log: Pick<FastifyBaseLogger, 'warn'>): OtpSender {
  return {
    async send({ mobile, message, pidx }) {
      const { url, init } = smsRequest(gateway, { mobile, message });
      let status: number;
      try {
        const response = await fetch(url, { ...init, signal: AbortSignal.timeout(gateway.timeoutMs) });
        status = response.status;
        // The answer's body is not needed (and may echo the message): released unread.
        await response.body?.cancel();
      } catch (error) {
        const reason = failureReason(error, gateway.timeoutMs);
        log.warn({ pidx, mobile: maskMobile(mobile), reason }, 'OTP not sent: the SMS gateway failed');
        throw new OtpNotSentError(reason);
      }
      if (status < 200 || status > 299) {
        log.warn({ pidx, mobile: maskMobile(mobile), status }, 'OTP not sent: the SMS gateway refused it');
        throw new OtpNotSentError(`the gateway answered ${status}`);
      }
    },
  };
}
