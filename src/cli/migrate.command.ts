import { command } from './command.js';

/** The store is migrated when it is opened; this command only reports the state. */
export const migrateCommand = command({
  usage: 'migrate',
  parse: () => ({}),
  async run(ctx, _parsed, io) {
    const rows = await ctx.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    io.out(`Schema up to date: ${rows.map((r) => r.name).join(', ')}`);
    return 0;
  },
});
