import { html, type Html } from '../http/html.js';
import type { Environment } from '../environment.js';

export function portalLayout(options: { title: string; environment?: Environment; body: Html }): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · Bhuktani</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/portal.css">
<script src="/assets/portal.js" defer></script>
</head>
<body>
${options.environment === 'test' ? html`<div class="test-banner" role="status"><strong>TEST MODE</strong> · sandbox payment, no real money moves</div>` : ''}
<header class="brand"><span class="logo" aria-hidden="true">B</span> Bhuktani <span class="secure">Secure checkout</span></header>
<main class="card">
${options.body}
</main>
<footer class="foot">Payments processed by Bhuktani · Never share your MPIN or OTP with anyone</footer>
</body>
</html>`;
}
