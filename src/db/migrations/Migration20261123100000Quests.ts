import { Migration } from '@mikro-orm/migrations';

/** Quests: progress per character and quest (stage, started and completed times) and the character's quest points. */
export class Migration20261123100000Quests extends Migration {

  override name = 'Migration20261123100000Quests';

  override up(): void | Promise<void> {
    this.addSql(`create table "quest_progress" ("id" bigserial primary key, "character_id" text not null, "quest_id" text not null, "stage" int not null, "started_at" timestamptz not null, "completed_at" timestamptz null);`);
    this.addSql(`alter table "quest_progress" add constraint "quest_progress_character_quest_unique" unique ("character_id", "quest_id");`);
    this.addSql(`alter table "quest_progress" add constraint "quest_progress_stage_positive" check (stage >= 1);`);
    this.addSql(`alter table "quest_progress" add constraint "quest_progress_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`alter table "characters" add "quest_points" int not null default 0;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "quest_progress" cascade;`);
    this.addSql(`alter table "characters" drop column if exists "quest_points";`);
  }

}
