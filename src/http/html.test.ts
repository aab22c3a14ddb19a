import { expect, it } from 'vitest';
import { html } from './html.js';

it('escapes interpolated text but not nested html', () => {
  const name = '<script>alert("1")</script>';
  expect(html`<p title="${name}">${name}</p>`.value).toBe(
    '<p title="&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt;</p>',
  );
  expect(html`<ul>${['a', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.value).toBe('<ul><li>a</li><li>b</li></ul>');
  expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
});
