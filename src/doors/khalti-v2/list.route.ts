import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { callerOf } from '../../http/authenticate.js';
import { AppError } from '../../http/errors.js';
import { parseOrThrow } from '../../http/parse-fields.js';
import { listFilters, pageOf, pageSizeOf, pagingParameters, type ListFilters } from '../../transactions/list-query.js';
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
      const page = pageOf(query.page);
      if (page === undefined) throw new AppError('invalid_page');
      const pageSize = pageSizeOf(query.page_size);
      const pageLink = (n: number) => {
        const params = new URLSearchParams({ page: String(n), page_size: String(pageSize) });
        for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
        return `${ctx.config.publicUrl}${LIST_PATH}?${params}`;
      };
      return listTransactions(ctx, callerOf(request), { filters, page, pageSize, pageLink });
    },
  );
}
