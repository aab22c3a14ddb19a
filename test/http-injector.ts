// What test/portal-client.ts's payer drives, over real HTTP: a server process at `base` instead of
// an app in the test's own process.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Injector } from './portal-client.js';

/** A browser over real HTTP: what portal-client's payer does, against the process. */
export function overHttp(base: string): Injector {
  return {
    async inject(options: InjectOptions) {
      const answer = await fetch(`${base}${options.url as string}`, {
        method: options.method as string,
        headers: options.headers as Record<string, string>,
        body: options.payload as string | undefined,
        redirect: 'manual',
      });
      const headers: Record<string, unknown> = Object.fromEntries(answer.headers);
      headers['set-cookie'] = answer.headers.getSetCookie();
      return { statusCode: answer.status, body: await answer.text(), headers } as unknown as LightMyRequestResponse;
    },
  };
}
