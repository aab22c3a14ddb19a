// The API reference at /docs, rendered on the server from the OpenAPI document itself.
import { html, type Html } from './html.js';
import { assetUrl } from './assets.route.js';

type Schema = Record<string, any>;

function typeOf(schema: Schema): string {
  if (schema.oneOf) return (schema.oneOf as Schema[]).map(typeOf).join(' or ');
  if (schema.enum) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  return schema.type ?? (schema.$ref ? String(schema.$ref).split('/').pop() : 'any');
}

function fieldRows(schema: Schema, prefix = ''): Html[] {
  const required: string[] = schema.required ?? [];
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([name, field]) => {
    const path = `${prefix}${name}`;
    const row = html`<tr><td data-label="Field"><code>${path}</code></td><td data-label="Type">${typeOf(field)}</td><td data-label="Required">${required.includes(name) ? 'yes' : ''}</td><td data-label="Notes">${field.description ?? ''}${field.format ? ` (${field.format})` : ''}</td></tr>`;
    const nested = field.type === 'object' ? fieldRows(field, `${path}.`) : field.type === 'array' && field.items?.type === 'object' ? fieldRows(field.items, `${path}[].`) : [];
    return [row, ...nested];
  });
}

function fieldTable(schema: Schema): Html {
  const rows = fieldRows(schema);
  return rows.length ? html`<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead><tbody>${rows}</tbody></table>` : html``;
}

function operationSection(path: string, method: string, op: Schema): Html {
  const body = op.requestBody?.content?.['application/json'];
  const example = body?.examples ? (Object.values(body.examples)[0] as Schema).value : undefined;
  const params = (op.parameters ?? []) as Schema[];
  const id = `${method}-${path}`.replace(/[^\w-]+/g, '-');
  return html`<section class="op" id="${id}">
  <h2><span class="method ${method}">${method.toUpperCase()}</span> <code>${path}</code></h2>
  <p class="summary">${op.summary}</p>
  ${op.description ? html`<p>${op.description}</p>` : ''}
  ${
    params.length
      ? html`<h3>Parameters</h3><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Notes</th></tr></thead><tbody>${params.map(
          (p) => html`<tr><td data-label="Name"><code>${p.name}</code></td><td data-label="In">${p.in}</td><td data-label="Type">${typeOf(p.schema ?? {})}</td><td data-label="Notes">${p.description ?? ''}</td></tr>`,
        )}</tbody></table>`
      : ''
  }
  ${body ? html`<h3>Request body</h3>${fieldTable(body.schema)}` : ''}
  ${example ? html`<h3>Example</h3><pre><code>${JSON.stringify(example, null, 2)}</code></pre>` : ''}
  <h3>Responses</h3>
  <dl class="responses">${Object.entries(op.responses as Record<string, Schema>).map(([status, response]) => {
    const content = response.content?.['application/json'];
    const examples = content?.examples ? Object.values(content.examples as Record<string, Schema>).map((e) => e.value) : [];
    return html`<dt><span class="status s${status[0]}">${status}</span> ${response.description}</dt><dd>${examples.map((e) => html`<pre><code>${JSON.stringify(e)}</code></pre>`)}</dd>`;
  })}</dl>
</section>`;
}

/** A section of prose after the operations (a door's guide), with its own heading and anchor. */
export interface DocsSection {
  id: string;
  title: string;
  body: Html;
}

export function docsPage(doc: Schema, sections: DocsSection[] = []): Html {
  const operations = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('docs.css')}">
</head>
<body>
<header><h1>${doc.info.title} <small>${doc.info.version}</small></h1>
<p>${doc.info.description}</p>
<p>Base URL: <code>${doc.servers[0].url}</code> · Machine-readable: <a href="/api/v2/openapi.json">OpenAPI 3.1 document</a></p>
<nav><ul>${operations.map(({ path, method, op }) => html`<li><a href="#${`${method}-${path}`.replace(/[^\w-]+/g, '-')}">${method.toUpperCase()} ${path}</a> — ${op.summary}</li>`)}${sections.map((s) => html`<li><a href="#${s.id}">${s.title}</a></li>`)}</ul></nav>
</header>
<main>
${operations.map(({ path, method, op }) => operationSection(path, method, op))}
${sections.map((s) => html`<section class="op guide" id="${s.id}"><h2>${s.title}</h2>${s.body}</section>`)}
</main>
</body>
</html>`;
}
