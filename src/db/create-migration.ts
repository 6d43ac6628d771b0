/**
 * Writes a new migration (src/db/migrations) from the difference between the entities and the migrated schema,
 * computed on a throw-away in-memory database. Then add it to migrations/index.ts.
 */
import { PGlite } from '@electric-sql/pglite';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/pglite';
import { ENTITIES } from './entities/index.ts';
import { MIGRATIONS } from './migrations/index.ts';

const pglite = await PGlite.create();
const orm = await MikroORM.init({
  entities: ENTITIES,
  extensions: [Migrator],
  dbName: 'game',
  driverOptions: { pglite },
  migrations: { migrationsList: MIGRATIONS, path: 'src/db/migrations', emit: 'ts', snapshot: false },
});
await orm.migrator.up();
const result = await orm.migrator.create(undefined, false, MIGRATIONS.length === 0);
console.log(result.fileName ? `created ${result.fileName}` : 'no schema changes');
await orm.close(true);
await pglite.close();
