// Labelled form controls with their error messages, the same on every dashboard form.
import { html, type Html } from '../http/html.js';

export interface InputOptions {
  name: string;
  label: string;
  type?: string;
  value?: string;
  error?: string;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  attributes?: Html;
}

export function textInput(o: InputOptions): Html {
  const id = `field-${o.name}`;
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${o.error ? ' invalid' : ''}">
  <label for="${id}">${o.label}</label>
  <input id="${id}" name="${o.name}" type="${o.type ?? 'text'}" value="${o.value ?? ''}"${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${o.required ? html` required` : ''}${described ? html` aria-describedby="${described}"` : ''}${o.error ? html` aria-invalid="true"` : ''}${o.attributes ?? ''}>
  ${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
  ${o.error ? html`<p class="field-error" id="${id}-error">${o.error}</p>` : ''}
</div>`;
}

/** `id`: for a page with two forms of the same field (the keys page's two rotation forms). */
export function selectInput(o: { name: string; label: string; value: string; options: [string, string][]; error?: string; id?: string }): Html {
  const id = o.id ?? `field-${o.name}`;
  return html`<div class="field${o.error ? ' invalid' : ''}">
  <label for="${id}">${o.label}</label>
  <select id="${id}" name="${o.name}"${o.error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${o.options.map(([value, text]) => html`<option value="${value}"${value === o.value ? html` selected` : ''}>${text}</option>`)}</select>
  ${o.error ? html`<p class="field-error" id="${id}-error">${o.error}</p>` : ''}
</div>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf_token" value="${token}">`;
}

export function alertBox(message: string | undefined, tone: 'error' | 'success' = 'error'): Html | '' {
  if (!message) return '';
  return html`<p class="alert ${tone}" role="${tone === 'error' ? 'alert' : 'status'}">${message}</p>`;
}
