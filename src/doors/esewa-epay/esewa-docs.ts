// The "eSewa ePay" section of /docs: what an eSewa integration changes (base URL, product code,
// secret key) and the door's wire in brief; the status check itself is an operation of the
// OpenAPI document above it. docs/esewa.md has the whole of it.
import { html } from '../../http/html.js';
import type { DocsSection } from '../../http/docs-page.js';
import { ESEWA_TEST_PAIR } from '../../merchants/esewa-credential.js';
import { esewaSandbox } from '../../wallets/wallet.js';
import { formFieldNames } from './form-request.js';

const row = (cells: string[]) => html`<tr>${cells.map((c, i) => html`<td data-label="${['What', 'Where', 'Answer'][i]}">${c}</td>`)}</tr>`;

export function esewaDocsSection(publicUrl: string): DocsSection {
  return {
    id: 'esewa',
    title: 'eSewa ePay',
    body: html`<p>An integration written for eSewa's ePay works here by changing its base URL to <code>${publicUrl}</code> and its product code and secret key to the merchant's (the dashboard's API keys page; <code>bhuktani merchant create --json</code>). The product code picks the merchant and the environment; nothing takes an <code>Authorization</code> header. A payment started here is an ordinary payment: the same hosted page, list, refunds, webhooks and settlements.</p>
<table><thead><tr><th>What</th><th>Where</th><th>Answer</th></tr></thead><tbody>
${row(['ePay v2 form', 'POST /api/epay/main/v2/form (form-encoded, multipart, JSON or the query string)', '302 to the hosted page'])}
${row(['ePay v2 status check', 'GET /api/epay/transaction/status/ (below)', '200 JSON'])}
${row(['ePay v1 form', 'POST /epay/main, or GET (amt, txAmt, psc, pdc, tAmt, scd, pid, su, fu)', '302 to the hosted page'])}
${row(['ePay v1 verification', 'POST /epay/transrec, or GET (amt, rid, pid, scd)', '200 text/xml Success or failure'])}
</tbody></table>
<h3>The v2 form</h3>
<p>Fields, all required (unused charges <code>0</code>): ${formFieldNames.map((name, i) => html`${i ? ', ' : ''}<code>${name}</code>`)}. Amounts are rupees as decimal strings (<code>100</code>, <code>100.0</code>, <code>100.50</code>; at most two decimals); <code>total_amount</code> is the sum of the other four. <code>transaction_uuid</code>: letters, digits and hyphens; posted again with the same amounts it resumes its payment, with others it is refused.</p>
<p>The signature: HMAC-SHA256 with the secret key's text as key, base64, over <code>name=value</code> pairs joined by <code>,</code> in the order of <code>signed_field_names</code> (at least <code>total_amount,transaction_uuid,product_code</code>). Key <code>${ESEWA_TEST_PAIR.secretKey}</code>, message <code>total_amount=110,transaction_uuid=241028,product_code=${ESEWA_TEST_PAIR.productCode}</code> → <code>i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=</code>.</p>
<p>Errors: a bad signature <code>400 {"code":"ES104","message":"Invalid payload signature."}</code>; an unknown product code <code>400 {"code":0,"error_message":"Unable to fetch merchant key. Please try again later."}</code>; anything else <code>400 {"code":0,"error_message":"&lt;every problem&gt;"}</code>.</p>
<h3>Back to the merchant</h3>
<p>Paid: <code>success_url?data=&lt;base64 of JSON&gt;</code> with <code>transaction_code</code>, <code>status</code> (<code>COMPLETE</code>), <code>total_amount</code> (<code>"110.0"</code>), <code>transaction_uuid</code>, <code>product_code</code>, <code>signed_field_names</code> and <code>signature</code> over them in that order. Held: <code>failure_url?data=…</code>, the same with <code>status</code> <code>PENDING</code>. Canceled: <code>failure_url?data=…</code>, without <code>transaction_code</code>, <code>status</code> <code>CANCELED</code>. Check the signature, then the status check. v1: <code>su?oid=&lt;pid&gt;&amp;amt=&lt;total&gt;&amp;refId=&lt;transaction code&gt;</code> once paid, else <code>fu?pid=&lt;pid&gt;</code>; each post of a <code>pid</code> is a payment of its own until one is paid.</p>
<h3>The sandbox</h3>
<p>eSewa's test IDs ${esewaSandbox.mobiles[0]}–${esewaSandbox.mobiles.at(-1)} (MPIN ${esewaSandbox.mpin}, OTP ${esewaSandbox.otp}) pay on the hosted page in the test environment. The demo merchant also answers to eSewa's published test pair, product code <code>${ESEWA_TEST_PAIR.productCode}</code>, secret key <code>${ESEWA_TEST_PAIR.secretKey}</code>, in the test environment only.</p>`,
  };
}
