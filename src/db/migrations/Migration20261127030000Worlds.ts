import { Migration } from '@mikro-orm/migrations';

/**
 * Many worlds (docs/worlds.md). `worlds`: the open worlds and their numbers, one row per world room, unique across
 * every process that shares the database. `character_worlds`: which world each character is in, at most one row per
 * character — the one-world-per-character rule lives in this primary key, where every process sees it. Ground items
 * and gravestones belong to the world they lie in.
 */
export class Migration20261127030000Worlds extends Migration {

  override name = 'Migration20261127030000Worlds';

  override up(): void | Promise<void> {
    this.addSql(`create table "worlds" ("number" int not null, "room_id" text not null, "process_id" text not null, "opened_at" timestamptz not null default now(), "heartbeat_at" timestamptz not null default now(), primary key ("number"));`);
    this.addSql(`alter table "worlds" add constraint "worlds_room_id_unique" unique ("room_id");`);
    this.addSql(`alter table "worlds" add constraint "worlds_number_positive" check (number >= 1);`);
    this.addSql(`create table "character_worlds" ("character_id" text not null, "world" int not null, "room_id" text not null, "entered_at" timestamptz not null default now(), primary key ("character_id"));`);
    this.addSql(`alter table "character_worlds" add constraint "character_worlds_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);
    this.addSql(`create index "character_worlds_room_id_index" on "character_worlds" ("room_id");`);
    this.addSql(`alter table "ground_items" add column "world" int not null default 1;`);
    this.addSql(`create index "ground_items_world_index" on "ground_items" ("world");`);
    this.addSql(`alter table "player_deaths" add column "world" int not null default 1;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "player_deaths" drop column if exists "world";`);
    this.addSql(`drop index if exists "ground_items_world_index";`);
    this.addSql(`alter table "ground_items" drop column if exists "world";`);
    this.addSql(`drop table if exists "character_worlds" cascade;`);
    this.addSql(`drop table if exists "worlds" cascade;`);
  }

}
