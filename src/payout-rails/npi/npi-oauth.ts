// NPI's OAuth2 tokens (NPI Specification §5.1.1): client credentials as HTTP Basic, the API user in a
// form body. NCHL's documented two-step: the password grant only obtains the refresh token (12 h) and
// its access token must not be used; the refresh grant then gives the access token (300 s) that calls
// carry as Bearer. Renewed by the clock a little before either expires, and by NPI's answers: a 401
// from a call renews the access token, a 400 from the refresh grant starts again at the password grant.
import { Type } from '@sinclair/typebox';
import type { Clock } from '../../clock.js';
import { TransportError, type Transport } from '../../providers/provider-http.js';
import { readJson } from '../../providers/wire.js';

export interface NpiCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The API user, `NAME@code`; also the last field of every signed token string. */
  username: string;
  password: string;
}

/** Spring OAuth2's token answer, as every public NPI client reads it (NCHL prints none). */
const TokenAnswer = Type.Object({
  access_token: Type.String({ minLength: 1, maxLength: 4096 }),
  token_type: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  expires_in: Type.Optional(Type.Integer({ minimum: 1 })),
  scope: Type.Optional(Type.String()),
});

/** NCHL's documented lifetimes, used when an answer does not say (refresh tokens' never does). */
export const ACCESS_SECONDS = 300;
export const REFRESH_SECONDS = 12 * 60 * 60;

/** How long before its end a token is renewed: a fifth of its life, at most 30 s (5 min for the refresh token). */
const renewalMargin = (seconds: number, most: number) => Math.min(most, seconds / 5) * 1000;

/** The token endpoint could not give a token; nothing was sent with it. */
export class NpiTokenError extends Error {}

interface Held {
  token: string;
  renewAt: number;
}

export interface NpiTokens {
  /** A current access token: renewed first when it is about to expire. */
  accessToken(): Promise<string>;
  /** A new access token in place of `rejected` (a call answered 401 with it). */
  renewAfter401(rejected: string): Promise<string>;
}

export function npiTokens(credentials: NpiCredentials, transport: Transport, clock: Clock): NpiTokens {
  const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`, 'utf8').toString('base64');
  let refresh: Held | undefined;
  let access: Held | undefined;
  // One renewal at a time: callers arriving during it wait for the same token.
  let renewing: Promise<string> | undefined;

  async function grant(fields: Record<string, string>): Promise<{ status: number; body?: typeof TokenAnswer.static; reason?: string }> {
    let answer;
    try {
      answer = await transport({
        url: `${credentials.baseUrl}/oauth/token`,
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(fields).toString(),
      });
    } catch (error) {
      if (error instanceof TransportError) throw new NpiTokenError(`NPI's token endpoint: ${error.message}`);
      throw error;
    }
    if (answer.status !== 200) return { status: answer.status };
    const read = readJson(answer, TokenAnswer, `NPI's token answer (${fields.grant_type})`);
    return read.ok ? { status: 200, body: read.body } : { status: 200, reason: read.reason };
  }

  async function passwordGrant(): Promise<Held> {
    const answer = await grant({ grant_type: 'password', username: credentials.username, password: credentials.password });
    if (answer.status !== 200) throw new NpiTokenError(`NPI refused the API user (password grant answered ${answer.status})`);
    if (!answer.body) throw new NpiTokenError(answer.reason ?? 'no token');
    if (!answer.body.refresh_token) throw new NpiTokenError('NPI’s password grant gave no refresh_token');
    // Its access_token is deliberately dropped: NCHL forbids using it.
    return { token: answer.body.refresh_token, renewAt: clock.now().getTime() + REFRESH_SECONDS * 1000 - renewalMargin(REFRESH_SECONDS, 300) };
  }

  async function refreshGrant(held: Held): Promise<Held | 'refused'> {
    const answer = await grant({ grant_type: 'refresh_token', refresh_token: held.token });
    if (answer.status === 400 || answer.status === 401) return 'refused';
    if (answer.status !== 200) throw new NpiTokenError(`NPI's refresh grant answered ${answer.status}`);
    if (!answer.body) throw new NpiTokenError(answer.reason ?? 'no token');
    // A refresh grant that hands out a new refresh token replaces the old one (RFC 6749 §6); its end stays the first one's.
    if (answer.body.refresh_token && answer.body.refresh_token !== held.token) refresh = { token: answer.body.refresh_token, renewAt: held.renewAt };
    const seconds = answer.body.expires_in ?? ACCESS_SECONDS;
    return { token: answer.body.access_token, renewAt: clock.now().getTime() + seconds * 1000 - renewalMargin(seconds, 30) };
  }

  async function renew(): Promise<string> {
    if (!refresh || clock.now().getTime() >= refresh.renewAt) refresh = await passwordGrant();
    let renewed = await refreshGrant(refresh);
    if (renewed === 'refused') {
      // The refresh token expired or was revoked before its time: start again from the API user.
      refresh = await passwordGrant();
      renewed = await refreshGrant(refresh);
      if (renewed === 'refused') throw new NpiTokenError('NPI refused a refresh token it had just given');
    }
    access = renewed;
    return renewed.token;
  }

  function renewOnce(): Promise<string> {
    renewing ??= renew().finally(() => {
      renewing = undefined;
    });
    return renewing;
  }

  return {
    accessToken() {
      if (access && clock.now().getTime() < access.renewAt) return Promise.resolve(access.token);
      return renewOnce();
    },
    renewAfter401(rejected) {
      // Another call renewed it meanwhile: use that one rather than renewing again.
      if (access && access.token !== rejected && clock.now().getTime() < access.renewAt) return Promise.resolve(access.token);
      access = undefined;
      return renewOnce();
    },
  };
}
