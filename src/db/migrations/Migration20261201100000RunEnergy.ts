import { Migration } from '@mikro-orm/migrations';

/**
 * Run energy (issue #38, src/game/run-energy.ts) persists with the character: hundredths of a percent, 0–10,000;
 * every existing character starts full.
 */
export class Migration20261201100000RunEnergy extends Migration {

  override name = 'Migration20261201100000RunEnergy';

  override up(): void | Promise<void> {
    this.addSql(`alter table "characters" add column "run_energy" int not null default 10000;`);
    this.addSql(`alter table "characters" add constraint "characters_run_energy_range" check (run_energy >= 0 and run_energy <= 10000);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "characters" drop constraint if exists "characters_run_energy_range";`);
    this.addSql(`alter table "characters" drop column if exists "run_energy";`);
  }

}
