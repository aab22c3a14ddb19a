// The <head> of the signed-in sites' pages (dashboard, console): no referrer, not indexed, no
// favicon request, one stylesheet and at most one script of our own.
import { html, type Html } from './html.js';

export function pageHead(options: { title: string; stylesheet: string; script?: string }): Html {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${options.title}</title>
<link rel="stylesheet" href="${options.stylesheet}">
${options.script ? html`<script src="${options.script}" defer></script>` : ''}
</head>`;
}
