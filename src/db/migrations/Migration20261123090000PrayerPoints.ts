import { Migration } from '@mikro-orm/migrations';

/** Prayer points persist between sessions; null means full (the prayer level), as for every existing character. */
export class Migration20261123090000PrayerPoints extends Migration {

  override name = 'Migration20261123090000PrayerPoints';

  override up(): void | Promise<void> {
    this.addSql(`alter table "characters" add column "prayer_points" int null;`);
    this.addSql(`alter table "characters" add constraint "characters_prayer_points_range" check (prayer_points >= 0);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "characters" drop constraint if exists "characters_prayer_points_range";`);
    this.addSql(`alter table "characters" drop column if exists "prayer_points";`);
  }

}
