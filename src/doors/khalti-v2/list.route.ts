import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { callerOf } from '../../http/authenticate.js';
import { parseOrThrow } from '../../http/parse-fields.js';
import { listFilters, pagingOf, pagingParameters, type ListFilters } from '../../transactions/list-query.js';
import { listTransactions } from '../../transactions/list-transactions.js';
import { transactionPageSchema } from '../../transactions/transaction-page.schema.js';

const LIST_PATH = '/api/v2/merchant-transaction/';

// Documentation only: the filters are checked by `listFilters`, paging leniently.
const listQuerySchema = {
  type: 'object',
  properties: {
    ...(listFilters.jsonSchema.properties as object),
    page: pagingParameters.page.jsonSchema,
    page_size: pagingParameters.page_size.jsonSchema,
  },
};

export function registerTransactionList(app: FastifyInstance, ctx: AppContext) {
  app.get(
    '/v2/merchant-transaction/',
    {
      config: { errors: ['invalid_page', 'validation_error'] },
      schema: {
        summary: "List the merchant's transactions",
        description: 'Newest first, for the environment of the key used: one record per payment that reached a transaction, one per refund.',
        operationId: 'listTransactions',
        querystring: listQuerySchema,
        response: { 200: transactionPageSchema },
      },
    },
    async (request) => {
      const query = request.query as Record<string, unknown>;
      const filters = parseOrThrow(listFilters, query) as ListFilters;
      return listTransactions(ctx, callerOf(request), { filters, ...pagingOf(query, { publicUrl: ctx.config.publicUrl, path: LIST_PATH, filters }) });
    },
  );
}
