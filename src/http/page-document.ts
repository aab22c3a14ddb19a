// The document around every page of the signed-in sites (dashboard, console), and the section of a
// page that only says something (not found, form expired): each site keeps its own frame and classes.
import { html, type Html } from './html.js';

export function pageDocument(options: { head: Html; bodyClass: string; content: Html }): Html {
  return html`<!doctype html>
<html lang="en">
${options.head}
<body class="${options.bodyClass}">
${options.content}
</body>
</html>`;
}

export interface PageMessage {
  title: string;
  message: string;
  link?: { href: string; text: string };
}

export function messageSection(content: PageMessage, className: string): Html {
  return html`<section class="${className}">
  <h1>${content.title}</h1>
  <p>${content.message}</p>
  ${content.link ? html`<p><a class="button" href="${content.link.href}">${content.link.text}</a></p>` : ''}
</section>`;
}
