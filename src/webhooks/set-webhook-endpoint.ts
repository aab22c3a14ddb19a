import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { isHttpUrl } from '../http/fields.js';
import type { Environment } from '../environment.js';
import { setWebhookEndpoint as storeEndpoint } from './webhook-store.js';

/** Sets (or, with an empty URL, removes) the endpoint that receives an environment's events. */
export async function setWebhookEndpoint(ctx: AppContext, options: { merchantId: number; environment: Environment; url: string }): Promise<void> {
  const url = options.url.trim();
  if (url !== '' && (!isHttpUrl(url) || url.length > 2048)) throw new AppError('validation_error', { fields: { url: ['Enter a valid URL.'] } });
  await storeEndpoint(ctx.db, options.merchantId, options.environment, url === '' ? null : url, ctx.clock.now());
}
