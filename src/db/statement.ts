// One SQL statement assembled from parts that live in their own domains (a payment's move and its
// event and webhook delivery; a journal and its postings), so that a use case needing all of them
// atomically sends one statement — no BEGIN, no COMMIT, no connection held while Node runs between.
// Each part adds its own parameters; the text comes out the same for the same parts, so the store
// prepares it once per connection.

export class Statement {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  /** Adds a parameter; returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds a common table expression; a data-modifying one runs whether or not the result reads it. */
  with(name: string, sql: string): this {
    this.parts.push(`${name} AS (\n${sql}\n)`);
    return this;
  }

  /** The statement's text, ending with `result`. */
  text(result: string): string {
    return this.parts.length ? `WITH ${this.parts.join(',\n')}\n${result}` : result;
  }
}

/** A list of columns (`a, b, c`) qualified by a table's alias in a join (`t.a, t.b, t.c`). */
export const qualified = (alias: string, columns: string) =>
  columns
    .split(',')
    .map((c) => `${alias}.${c.trim()}`)
    .join(', ');
