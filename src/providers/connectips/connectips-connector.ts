// connectIPS e-payment, spoken as a client: the payer's browser posts a form
// signed with the merchant's certificate (TOKEN, SHA256withRSA from the PFX) to the login page;
// connectIPS sends it back to the success or failure URL registered for the app at NCHL
// (PUBLIC_URL/pay/return/connectips/success and …/failure) with TXNID; the validation API
// (validatetxn, HTTP basic authentication with the app id and password, a signed token) decides.
// connectIPS has no refund API.
import type { PageProvider, SetupWith } from '../provider.js';
import { TransportError, type Transport } from '../provider-http.js';
import { formTokenMessage, readPfx, signToken, validationTokenMessage, type FormFields, type PfxContents } from './connectips-token.js';
import { validationAnswer } from './transformers.js';

type ConnectipsSetup = SetupWith<
  { gateway_url: string; api_url: string; merchant_id: string; app_id: string; app_name: string },
  { password: string; pfx: string; key_passphrase: string }
>;

const keys = new Map<string, PfxContents>();

/** The PFX read once per key file (node-forge's PKCS#12 decryption is slow). */
function pfxOf(setup: ConnectipsSetup): PfxContents {
  const cacheKey = `${setup.credentials.pfx}:${setup.credentials.key_passphrase}`;
  let contents = keys.get(cacheKey);
  if (!contents) {
    contents = readPfx(Buffer.from(setup.credentials.pfx, 'base64'), setup.credentials.key_passphrase);
    if (keys.size > 20) keys.clear();
    keys.set(cacheKey, contents);
  }
  return contents;
}

/** DD-MM-YYYY in Nepal, as NCHL dates transactions. */
function nepalDate(at: Date): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kathmandu', day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.day}-${parts.month}-${parts.year}`;
}

/** NCHL's fields allow letters, digits, spaces and a few marks; the rest is dropped. */
const plain = (text: string, length: number) => text.replace(/[^\w .,-]/g, '').slice(0, length) || '-';

export function connectipsConnector(setup: ConnectipsSetup, transport: Transport): PageProvider<null> {
  const { gateway_url: gateway, api_url: api, merchant_id: merchantId, app_id: appId, app_name: appName } = setup.settings;

  return {

    async start(attempt) {
      const fields: FormFields = {
        MERCHANTID: merchantId,
        APPID: appId,
        APPNAME: appName,
        TXNID: attempt.idx,
        TXNDATE: nepalDate(attempt.createdAt),
        TXNCRNCY: 'NPR',
        TXNAMT: String(attempt.amount),
        REFERENCEID: attempt.idx,
        REMARKS: plain(attempt.orderName, 50),
        PARTICULARS: plain(attempt.merchantName, 100),
      };
      const token = signToken(pfxOf(setup).privateKey, formTokenMessage(fields));
      return { redirect: { method: 'POST', url: `${gateway}/connectipswebgw/loginpage`, fields: [...Object.entries(fields), ['TOKEN', token]] } };
    },

    readReturn(path, query) {
      const outcome = path[0];
      return { attemptIdx: query.TXNID, claim: outcome === 'success' ? 'paid' : outcome === 'failure' ? 'canceled' : 'unclear' };
    },

    async status(attempt) {
      const request = { merchantId, appId, referenceId: attempt.idx, txnAmt: attempt.amount };
      const body = { ...request, merchantId: Number(merchantId), token: signToken(pfxOf(setup).privateKey, validationTokenMessage(request)) };
      try {
        const answer = await transport({
          url: `${api}/connectipswebws/api/creditor/validatetxn`,
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${appId}:${setup.credentials.password}`).toString('base64')}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return validationAnswer(answer, { referenceId: attempt.idx, amount: attempt.amount });
      } catch (error) {
        if (error instanceof TransportError) return { kind: 'unknown', detail: error.message, fault: true };
        throw error;
      }
    },
  };
}
