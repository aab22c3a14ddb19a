// What a person and a merchant's server see while the database cannot be reached (issue 15): pages
// in the site's own look with 503 and Retry-After, and the API's JSON 503.
import { expect } from 'vitest';

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** The hosted page's or the dashboard's "briefly unavailable" page. */
export function expectOutagePage(answer: Answer, site: 'portal' | 'dashboard') {
  expect(answer.status, answer.body.slice(0, 300)).toBe(503);
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(String(answer.headers['retry-after'])).toMatch(/^\d+$/);
  expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
  expect(answer.body).toContain('<title>Briefly unavailable · Bhuktani');
  expect(answer.body).toContain('This service is briefly unavailable. Nothing was lost: please try again in a moment.');
  // The site's own look: its stylesheet, its frame.
  if (site === 'portal') expect(answer.body).toMatch(/href="\/assets\/portal\.[0-9a-f]{10}\.css"[\s\S]*Secure checkout/);
  else expect(answer.body).toMatch(/\/assets\/dashboard\.[0-9a-f]{10}\.css/);
}

/** The API keeps its JSON 503. */
export function expectApiUnavailable(answer: Answer) {
  expect(answer.status, answer.body.slice(0, 300)).toBe(503);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(String(answer.headers['retry-after'])).toMatch(/^\d+$/);
  expect(JSON.parse(answer.body)).toStrictEqual({ detail: 'Service temporarily unavailable, try again shortly.', status_code: 503 });
}
