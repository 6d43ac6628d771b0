import { Migration } from '@mikro-orm/migrations';

/** AI agents (scoped, expiring, revocable tokens; goal state) and player profiles (avatar, active character). */
export class Migration20261122061000Agents extends Migration {

  override name = 'Migration20261122061000Agents';

  override up(): void | Promise<void> {
    this.addSql(`create table "agents" ("id" text not null, "account_id" text not null, "character_id" text not null, "name" text not null, "token_jti" text not null, "token_expires_at" timestamptz not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, "goals_paused" boolean not null default false, "goal" jsonb null, primary key ("id"));`);
    this.addSql(`create index "agents_account_id_index" on "agents" ("account_id");`);
    this.addSql(`create index "agents_character_id_index" on "agents" ("character_id");`);
    this.addSql(`alter table "agents" add constraint "agents_token_jti_unique" unique ("token_jti");`);
    this.addSql(`create unique index "agents_character_active_unique" on "agents" ("character_id") where "revoked_at" is null;`);
    this.addSql(`alter table "agents" add constraint "agents_account_id_foreign" foreign key ("account_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "agents" add constraint "agents_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`create table "player_profiles" ("account_id" text not null, "avatar" text null, "active_character_id" text null, "updated_at" timestamptz not null, primary key ("account_id"));`);
    this.addSql(`alter table "player_profiles" add constraint "player_profiles_account_id_foreign" foreign key ("account_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "player_profiles" add constraint "player_profiles_active_character_id_foreign" foreign key ("active_character_id") references "characters" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "player_profiles" cascade;`);
    this.addSql(`drop table if exists "agents" cascade;`);
  }

}
