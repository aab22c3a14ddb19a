// An address an operator gives for another party's server (a provider's, NPI's): a URL, over https
// in live (plain http only in test, or to this machine), kept without its trailing slashes.
import type { Environment } from '../environment.js';

export function readEndpointUrl(raw: string, environment: Environment): { url: string } | { problem: 'not a URL' | 'not https' } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'not a URL' };
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (environment === 'test' || loopback))) return { problem: 'not https' };
  return { url: raw.replace(/\/+$/, '') };
}
