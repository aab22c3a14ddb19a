// A payment link's card for the shop counter: what is paid for, the amount, the QR code (its SVG, the
// business's name under it) and the address, on a page that prints on its own (A6). The
// card is for payers, so its words come from the payer's catalogue, in English and Nepali.
import { html, type Html } from '../http/html.js';
import { pageDocument } from '../http/page-document.js';
import { pageHead } from '../http/page-head.js';
import { unbrokenAmount } from '../language/amounts.js';
import { en } from '../language/en.js';
import { ne } from '../language/ne.js';
import { linkUrls, type PaymentLink } from '../payment-links/payment-link.js';
import { assetUrl } from '../http/assets.route.js';

export function linkPrintPage(view: { link: PaymentLink; publicUrl: string }): Html {
  const { link } = view;
  const { url } = linkUrls(view.publicUrl, link.code);
  const amount = link.amount !== null ? unbrokenAmount(link.amount, 'en') : en.link.anyAmount(unbrokenAmount(link.min_amount!, 'en'), unbrokenAmount(link.max_amount!, 'en'));
  return pageDocument({
    head: pageHead({ title: `${link.name} · counter card · Bhuktani`, stylesheet: assetUrl('dashboard.css') }),
    bodyClass: 'print-card-page',
    content: html`<nav class="no-print" aria-label="Card"><a href="/dashboard/links/${encodeURIComponent(link.idx)}">← Back to the link</a> <span>Print this page with your browser (Ctrl+P): it fills an A6 card.</span></nav>
<main class="counter-card">
  <h1 class="card-title">${link.name}</h1>
  <p class="card-amount">${amount}</p>
  <img class="card-qr" src="/l/${link.code}/qr.svg" alt="QR code of ${url}">
  <p class="card-scan">${en.link.scanToPay} · <span lang="ne">${ne.link.scanToPay}</span></p>
  <p class="card-url">${url}</p>
</main>`,
  });
}
