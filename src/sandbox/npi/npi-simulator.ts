// NCHL's National Payments Interface as a simulator, for the sandbox and the tests: OAuth2 tokens,
// the signed `token` checked against the member's certificate, account validation of the sandbox
// accounts (npi-accounts.ts), real-time (postcipsbatch) and batch (postnchlipsbatch) postings debited
// and credited in its own books, and the report APIs. Written from NPI's published protocol (the
// research notes' §2–§8), never from the connector in src/payout-rails/npi/.
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createPublicKey, timingSafeEqual, verify, X509Certificate, type KeyObject } from 'node:crypto';
import type { Clock, IdSource } from '../../clock.js';
import type { Db } from '../../db/db.js';
import { ipsPendingMessage, technicalErrors, type FieldError, type TechnicalErrorCode } from '../../protocols/npi/codes.js';
import { tokenString } from '../../protocols/npi/token-string.js';
import { validateSandboxAccount } from './npi-accounts.js';
import { batchesOfDays, findBatch, issueToken, moveCredits, pendingCredits, recordPosting, tokenHolder, transactionsOf } from './npi-books.js';
import { creditCourse, creditMove, dueCreditStatus } from './npi-credits.js';
import { byBatch, byDate, byInstruction } from './npi-reports.js';
import { readPosting, type Posting, type Rail } from './npi-request.js';

/** The one member the simulator serves: what NCHL issued it at onboarding. */
export interface NpiMember {
  clientId: string;
  clientSecret: string;
  /** The API user, `NAME@code`: also the `userId` its tokens sign and the reports' `rcreUserId`. */
  username: string;
  password: string;
  /** The member's certificate or RSA public key (PEM) its `token` fields are verified with. */
  certificate: string;
  /** The debit accounts NCHL whitelisted for the member; any, when not given. */
  debtorAccounts?: { bankId: string; accountId: string }[];
}

export interface NpiSimulatorOptions {
  /** Where it serves, e.g. `/sandbox/npi`. */
  prefix: string;
  db: Db;
  clock: Clock;
  ids: IdSource;
  /** The member, or where to read it each time (the sandbox's set-up, which an operator may change). */
  member: NpiMember | (() => Promise<NpiMember>);
  /** NPI's defaults: 300 s and 12 h. */
  accessTokenSeconds?: number;
  refreshTokenSeconds?: number;
  /** How long a batch credit stays in each of NCHL-IPS's states (ENTR, GEN, SENT, ACTC, ACSP). */
  ipsStepSeconds?: number;
  /** The category purposes each rail takes: ECPG real time, a few of NCHL-IPS's products in batches. */
  categoryPurposes?: Partial<Record<Rail, string[]>>;
}

const defaultPurposes: Record<Rail, string[]> = { cips: ['ECPG'], ips: ['CUST', 'SALA', 'SUPP', 'SSFC', 'SALC', 'GOVT', 'TREA', 'ECPG'] };
/** Nepal's day (UTC+5:45), NCHL's `recDate`. */
const nepalDay = (at: Date) => new Date(at.getTime() + 345 * 60_000).toISOString().slice(0, 10);
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const field = (body: unknown, name: string): unknown => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined);
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The member's public key from its certificate or a PEM public key. */
export function memberKey(pem: string): KeyObject {
  return pem.includes('BEGIN CERTIFICATE') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
}

/** NPI's technical answer: `{responseCode, responseDescription, fieldErrors}` with the code's HTTP status. */
function technical(reply: FastifyReply, code: TechnicalErrorCode, fieldErrors: FieldError[] = []) {
  const { status, description } = technicalErrors[code];
  return reply.code(status).send({ responseCode: code, responseDescription: description, billsPaymentDescription: null, billsPaymentResponseCode: null, fieldErrors });
}

export function registerNpiSimulator(app: FastifyInstance, options: NpiSimulatorOptions): void {
  const { db, clock, ids } = options;
  const accessSeconds = options.accessTokenSeconds ?? 300;
  const refreshSeconds = options.refreshTokenSeconds ?? 12 * 3600;
  const stepSeconds = options.ipsStepSeconds ?? 1;
  const rules = { categoryPurposes: { ...defaultPurposes, ...options.categoryPurposes } };
  // A certificate that does not open fails here, at start, when the member is given outright.
  let known = typeof options.member === 'function' ? undefined : { certificate: options.member.certificate, key: memberKey(options.member.certificate) };
  async function current(): Promise<{ member: NpiMember; key: KeyObject }> {
    const member = typeof options.member === 'function' ? await options.member() : options.member;
    if (known?.certificate !== member.certificate) known = { certificate: member.certificate, key: memberKey(member.certificate) };
    return { member, key: known.key };
  }
  const users = new WeakMap<FastifyRequest, string>();

  app.register(
    async (scope) => {
      if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) await scope.register(formbody);
      // Malformed JSON is a technical validation failure; anything unforeseen NPI's E999, never a stack.
      scope.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
        const status = error.statusCode ?? 500;
        if (status >= 500) return technical(reply, 'E999');
        return technical(reply, 'E007', [{ field: 'body', message: status === 413 ? 'The body is too large.' : 'The body is not a JSON object.' }]);
      });

      scope.post('/oauth/token', async (request, reply) => {
        const { member } = await current();
        const [scheme, credentials] = String(request.headers.authorization ?? '').split(' ');
        const [clientId, ...secret] = Buffer.from(credentials ?? '', 'base64').toString('utf8').split(':');
        if (scheme !== 'Basic' || !sameText(clientId, member.clientId) || !sameText(secret.join(':'), member.clientSecret)) {
          return reply.code(401).send({ error: 'unauthorized', error_description: 'Bad credentials' });
        }
        const now = clock.now();
        const grant = text(field(request.body, 'grant_type'));
        const access = async () => {
          const token = ids.random(24);
          await issueToken(db, { token, kind: 'access', clientId, username: member.username, expiresAt: new Date(now.getTime() + accessSeconds * 1000) });
          return token;
        };
        if (grant === 'password') {
          if (!sameText(text(field(request.body, 'username')), member.username) || !sameText(text(field(request.body, 'password')), member.password)) {
            return reply.code(400).send({ error: 'invalid_grant', error_description: 'Bad credentials' });
          }
          const refresh = ids.random(24);
          await issueToken(db, { token: refresh, kind: 'refresh', clientId, username: member.username, expiresAt: new Date(now.getTime() + refreshSeconds * 1000) });
          return { access_token: await access(), token_type: 'bearer', refresh_token: refresh, expires_in: accessSeconds, scope: 'read write' };
        }
        if (grant === 'refresh_token') {
          const refresh = text(field(request.body, 'refresh_token'));
          const holder = refresh ? await tokenHolder(db, refresh, 'refresh', now) : undefined;
          if (!holder || holder.client_id !== clientId) return reply.code(400).send({ error: 'invalid_grant', error_description: `Invalid refresh token: ${refresh}` });
          return { access_token: await access(), token_type: 'bearer', refresh_token: refresh, expires_in: accessSeconds, scope: 'read write' };
        }
        return reply.code(400).send({ error: 'unsupported_grant_type', error_description: `Unsupported grant type: ${grant}` });
      });

      scope.register(async (api) => {
        api.addHook('preHandler', async (request, reply) => {
          const [scheme, token] = String(request.headers.authorization ?? '').split(' ');
          if (scheme !== 'Bearer' || !token) return reply.code(401).send({ error: 'unauthorized', error_description: 'Full authentication is required to access this resource' });
          const holder = await tokenHolder(db, token, 'access', clock.now());
          if (!holder) return reply.code(401).send({ error: 'invalid_token', error_description: `Invalid access token: ${token}` });
          users.set(request, holder.username);
        });
        const userOf = (request: FastifyRequest) => users.get(request)!;

        api.post('/api/validatebankaccount', async (request, reply) => {
          const lengths = { bankId: 4, accountId: 20, accountName: 140 } as const;
          const errors = Object.entries(lengths).flatMap(([name, length]) => {
            const value = text(field(request.body, name));
            return !value ? [{ field: name, message: `${name} is required.` }] : value.length > length ? [{ field: name, message: `${name} must be at most ${length} characters.` }] : [];
          });
          if (errors.length) return technical(reply, 'E007', errors);
          const accountId = text(field(request.body, 'accountId'));
          return {
            bankId: text(field(request.body, 'bankId')),
            branchId: '1',
            accountId,
            // NPI never reveals the holder's name.
            accountName: null,
            currency: 'NPR',
            ...validateSandboxAccount(accountId, text(field(request.body, 'accountName'))),
            baseUrl: null,
            userName: null,
            password: null,
          };
        });

        for (const [rail, path] of [
          ['cips', '/api/postcipsbatch'],
          ['ips', '/api/postnchlipsbatch'],
        ] as const) {
          // 10,000 transactions of NPI's fields are about 4 MB of JSON.
          api.post(path, { bodyLimit: 16 * 1024 * 1024 }, async (request, reply) => {
            const read = readPosting(rail, request.body, rules);
            if (!read.ok) return technical(reply, 'E007', read.fieldErrors);
            const user = userOf(request);
            const { member, key } = await current();
            if (!signedBy(read.posting, user, key)) return technical(reply, 'E003');
            const { batch } = read.posting;
            if (member.debtorAccounts && !member.debtorAccounts.some((a) => a.bankId === batch.debtorAgent && a.accountId === batch.debtorAccount)) return technical(reply, 'E004');
            const now = clock.now();
            const recorded = await recordPosting(db, {
              member: user,
              rail,
              batch,
              transactions: read.posting.transactions.map((t) => ({ ...t, ...creditCourse(rail, t.creditorAccount) })),
              recDate: nepalDay(now),
              now,
              ipsBatchId: rail === 'ips' ? (id) => ipsBatchId(batch.debtorAgent, now, id) : undefined,
            });
            if (recorded === 'duplicate') return technical(reply, '99');
            if (recorded === 'instruction_reused') return technical(reply, 'E007', [{ field: `${rail === 'cips' ? 'cipsTransactionDetailList' : 'nchlIpsTransactionDetailList'}.instructionId`, message: 'instructionId was used in another batch.' }]);
            // connectIPS credits within the same HTTP session; NCHL-IPS later.
            if (rail === 'cips') await settleDue(user);
            const transactions = rail === 'cips' ? await transactionsOf(db, [recorded.batch.id]) : recorded.transactions;
            return {
              cipsBatchResponse: { responseCode: '000', responseMessage: 'SUCCESS', batchId: batch.batchId, debitStatus: recorded.batch.debit_status, id: recorded.batch.id },
              cipsTxnResponseList: transactions.map((t) => ({
                responseCode: t.credit_status,
                responseMessage: t.credit_status === '000' ? 'SUCCESS' : t.credit_status === 'ENTR' ? ipsPendingMessage : (t.reason_desc ?? ''),
                id: t.id,
                instructionId: t.instruction_id,
                creditStatus: t.credit_status,
              })),
            };
          });
        }

        for (const [rail, prefix, byInstructionPath] of [
          ['cips', '/api/getcips', '/api/getcipstxnbyinstructionid'],
          ['ips', '/api/getnchlips', '/api/getnchlipstxnlistbyinstructionid'],
        ] as const) {
          api.post(`${prefix}txnlistbybatchid`, async (request, reply) => {
            const batchId = text(field(request.body, 'batchId'));
            if (!batchId) return technical(reply, 'E007', [{ field: 'batchId', message: 'batchId is required.' }]);
            await settleDue(userOf(request));
            const batch = await findBatch(db, userOf(request), rail, batchId);
            // NCHL publishes no answer for an unknown id: an empty object.
            return batch ? byBatch(batch, await transactionsOf(db, [batch.id])) : {};
          });

          api.post(byInstructionPath, async (request, reply) => {
            const batchId = text(field(request.body, 'batchId'));
            const instructionId = text(field(request.body, 'instructionId'));
            const errors = [...(batchId ? [] : [{ field: 'batchId', message: 'batchId is required.' }]), ...(instructionId ? [] : [{ field: 'instructionId', message: 'instructionId is required.' }])];
            if (errors.length) return technical(reply, 'E007', errors);
            await settleDue(userOf(request));
            const batch = await findBatch(db, userOf(request), rail, batchId);
            const [transaction] = batch ? await transactionsOf(db, [batch.id], instructionId) : [];
            return batch && transaction ? byInstruction(transaction, batch) : {};
          });

          api.post(`${prefix}txnlistbydate`, async (request, reply) => {
            const from = text(field(request.body, 'txnDateFrom'));
            const to = text(field(request.body, 'txnDateTo'));
            const day = /^\d{4}-\d{2}-\d{2}$/;
            const errors = [...(day.test(from) ? [] : [{ field: 'txnDateFrom', message: 'txnDateFrom must be YYYY-MM-DD.' }]), ...(day.test(to) ? [] : [{ field: 'txnDateTo', message: 'txnDateTo must be YYYY-MM-DD.' }])];
            if (errors.length) return technical(reply, 'E007', errors);
            await settleDue(userOf(request));
            const batches = await batchesOfDays(db, userOf(request), rail, from, to);
            return byDate(batches, await transactionsOf(db, batches.map((b) => b.id)));
          });
        }
      });
    },
    { prefix: options.prefix },
  );

  /** Moves the member's credits to where the clock says they are by now; the books move with them. */
  async function settleDue(user: string): Promise<void> {
    const now = clock.now();
    const moves = (await pendingCredits(db, user)).flatMap((t) => {
      const due = dueCreditStatus(t.rail, t.credit_status, t.final_status, t.created_at, now, stepSeconds);
      return due === t.credit_status ? [] : [creditMove(t.rail, t.id, t.credit_status, due, t.final_status)];
    });
    await moveCredits(db, moves, now);
  }
}

/** Whether the posting's `token` is the member's SHA256withRSA signature of NPI's token string. */
function signedBy(posting: Posting, userId: string, key: KeyObject): boolean {
  const signed = tokenString(posting.rail, posting.batch, posting.transactions, userId);
  try {
    return verify('sha256', Buffer.from(signed, 'utf8'), key, Buffer.from(posting.token, 'base64'));
  } catch {
    return false;
  }
}

/** NCHL-IPS's batch id: a bank code, the day (yyMMdd), three letters (`1701200122GMT`; research notes §11). */
function ipsBatchId(debtorAgent: string, at: Date, id: number): string {
  const letters = [2, 1, 0].map((power) => String.fromCharCode(65 + (Math.floor(id / 26 ** power) % 26))).join('');
  return `${debtorAgent}${nepalDay(at).slice(2).replaceAll('-', '')}${letters}`;
}
