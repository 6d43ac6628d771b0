/**
 * Run after `npm install`: creates and migrates the embedded database at its default location, so the first
 * `npm start` opens an existing database (≈1 s) instead of initialising one (≈3–4 s). Never fails the install.
 */
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';

try {
  const { config } = loadConfig();
  if (config.databaseUrl || config.isProduction || config.pgliteDataDir.startsWith('memory://')) {
    console.log('prepare-embedded: nothing to do (PostgreSQL configured or production)');
  } else {
    const db = await openDatabase({ pgliteDataDir: config.pgliteDataDir });
    await db.close();
    console.log(`prepare-embedded: embedded database ready at ${config.pgliteDataDir}`);
  }
} catch (error) {
  console.warn(`prepare-embedded: skipped (${(error as Error).message}); the server will create the database on start`);
}
