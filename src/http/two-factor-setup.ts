// What the console and the dashboard both show when someone sets up two-factor: the QR code of the
// otpauth:// URI rendered on the server as SVG (no image from another host, nothing for a script to
// fetch), and the recovery codes, shown once.
import { Html, html } from './html.js';

export async function qrSvg(uri: string): Promise<Html> {
  // Loaded on the first enrolment, not on every start.
  const { default: QRCode } = await import('qrcode');
  return new Html(await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }));
}

/** The base32 secret in groups of four, for typing into an app. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

export function recoveryCodesBody(codes: string[], intro: string): Html {
  return html`<p>${intro}</p>
<p><strong>Keep these recovery codes somewhere safe.</strong> Each works once, in place of a code from the app, if you lose your phone. They are shown only now.</p>
<ol class="recovery-codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ol>`;
}
