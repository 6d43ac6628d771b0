import { Migration } from '@mikro-orm/migrations';

export class Migration20261122042204 extends Migration {

  override name = 'Migration20261122042204';

  override up(): void | Promise<void> {
    this.addSql(`create table "items" ("id" text not null, "name" text not null, "value" int not null default 0, "stackable" boolean not null default false, "tradeable" boolean not null default true, "definition" jsonb null, primary key ("id"));`);

    this.addSql(`create table "trade_audit" ("id" text not null, "initiator_id" text not null, "partner_id" text not null, "status" text not null, "reason" text null, "initiator_items" jsonb not null, "partner_items" jsonb not null, "started_at" timestamptz not null, "ended_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "trade_audit_initiator_id_index" on "trade_audit" ("initiator_id");`);
    this.addSql(`create index "trade_audit_partner_id_index" on "trade_audit" ("partner_id");`);

    this.addSql(`create table "users" ("id" text not null, "idp_subject" text null, "social_ids" jsonb null, "display_name" text not null, "roles" jsonb not null, "is_temporary" boolean not null default false, "expires_at" timestamptz null, "created_at" timestamptz not null, "last_login_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_idp_subject_unique" unique ("idp_subject");`);
    this.addSql(`create index "users_expires_at_index" on "users" ("expires_at");`);

    this.addSql(`create table "characters" ("id" text not null, "account_id" text not null, "name" text not null, "combat_level" int not null default 3, "health" int not null default 100, "coins" int not null default 0, "position_x" double precision not null default 0, "position_y" double precision not null default 10, "position_z" double precision not null default 0, "attack_level" int not null default 1, "strength_level" int not null default 1, "defense_level" int not null default 1, "constitution_level" int not null default 10, "ranged_level" int not null default 1, "magic_level" int not null default 1, "prayer_level" int not null default 1, "woodcutting_level" int not null default 1, "mining_level" int not null default 1, "fishing_level" int not null default 1, "firemaking_level" int not null default 1, "cooking_level" int not null default 1, "smithing_level" int not null default 1, "agility_level" int not null default 1, "crafting_level" int not null default 1, "fletching_level" int not null default 1, "runecrafting_level" int not null default 1, "attack_xp" int not null default 0, "strength_xp" int not null default 0, "defense_xp" int not null default 0, "constitution_xp" int not null default 1154, "ranged_xp" int not null default 0, "magic_xp" int not null default 0, "prayer_xp" int not null default 0, "woodcutting_xp" int not null default 0, "mining_xp" int not null default 0, "fishing_xp" int not null default 0, "firemaking_xp" int not null default 0, "cooking_xp" int not null default 0, "smithing_xp" int not null default 0, "agility_xp" int not null default 0, "crafting_xp" int not null default 0, "fletching_xp" int not null default 0, "runecrafting_xp" int not null default 0, "created_at" timestamptz not null, "last_login_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "characters_account_id_index" on "characters" ("account_id");`);
    this.addSql(`alter table "characters" add constraint "characters_name_unique" unique ("name");`);

    this.addSql(`create table "player_sessions" ("id" text not null, "character_id" text not null, "account_id" text not null, "started_at" timestamptz not null, "ended_at" timestamptz null, "reason" text null, "playtime_seconds" int not null default 0, primary key ("id"));`);
    this.addSql(`create index "player_sessions_character_id_index" on "player_sessions" ("character_id");`);

    this.addSql(`create table "player_deaths" ("id" text not null, "character_id" text not null, "position_x" double precision not null, "position_y" double precision not null, "position_z" double precision not null, "items" jsonb not null, "status" text not null default 'locked', "created_at" timestamptz not null, "expires_at" timestamptz not null, "resolved_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "player_deaths_character_id_index" on "player_deaths" ("character_id");`);

    this.addSql(`create table "npc_kills" ("id" bigserial primary key, "character_id" text not null, "npc_id" text not null, "kill_count" int not null default 0, "last_kill_at" timestamptz not null);`);
    this.addSql(`alter table "npc_kills" add constraint "npc_kills_character_npc_unique" unique ("character_id", "npc_id");`);

    this.addSql(`create table "inventory" ("id" bigserial primary key, "character_id" text not null, "slot" smallint not null, "item_id" text not null, "quantity" int not null, "metadata" jsonb null);`);
    this.addSql(`alter table "inventory" add constraint "inventory_character_slot_unique" unique ("character_id", "slot");`);
    this.addSql(`alter table "inventory" add constraint "inventory_slot_range" check (slot >= 0 and slot < 28);`);
    this.addSql(`alter table "inventory" add constraint "inventory_quantity_positive" check (quantity >= 1);`);

    this.addSql(`create table "ignore_lists" ("id" bigserial primary key, "account_id" text not null, "ignored_character_id" text not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "ignore_lists" add constraint "ignore_lists_pair_unique" unique ("account_id", "ignored_character_id");`);

    this.addSql(`create table "friendships" ("id" bigserial primary key, "character_id" text not null, "friend_id" text not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "friendships_friend_id_index" on "friendships" ("friend_id");`);
    this.addSql(`alter table "friendships" add constraint "friendships_pair_unique" unique ("character_id", "friend_id");`);
    this.addSql(`alter table "friendships" add constraint "friendships_not_self" check (character_id <> friend_id);`);

    this.addSql(`create table "friend_requests" ("id" bigserial primary key, "from_character_id" text not null, "to_character_id" text not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "friend_requests_to_character_id_index" on "friend_requests" ("to_character_id");`);
    this.addSql(`alter table "friend_requests" add constraint "friend_requests_pair_unique" unique ("from_character_id", "to_character_id");`);
    this.addSql(`alter table "friend_requests" add constraint "friend_requests_not_self" check (from_character_id <> to_character_id);`);

    this.addSql(`create table "equipment" ("id" bigserial primary key, "character_id" text not null, "slot_type" text not null, "item_id" text not null, "quantity" int not null default 1, "metadata" jsonb null);`);
    this.addSql(`alter table "equipment" add constraint "equipment_character_slot_unique" unique ("character_id", "slot_type");`);
    this.addSql(`alter table "equipment" add constraint "equipment_quantity_positive" check (quantity >= 1);`);

    this.addSql(`create table "world_chunks" ("id" bigserial primary key, "chunk_x" int not null, "chunk_z" int not null, "data" jsonb not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "world_chunks" add constraint "world_chunks_coords_unique" unique ("chunk_x", "chunk_z");`);

    this.addSql(`alter table "characters" add constraint "characters_account_id_foreign" foreign key ("account_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "player_sessions" add constraint "player_sessions_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);
    this.addSql(`alter table "player_sessions" add constraint "player_sessions_account_id_foreign" foreign key ("account_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "player_deaths" add constraint "player_deaths_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`alter table "npc_kills" add constraint "npc_kills_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`alter table "inventory" add constraint "inventory_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`alter table "ignore_lists" add constraint "ignore_lists_account_id_foreign" foreign key ("account_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "ignore_lists" add constraint "ignore_lists_ignored_character_id_foreign" foreign key ("ignored_character_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`alter table "friendships" add constraint "friendships_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);
    this.addSql(`alter table "friendships" add constraint "friendships_friend_id_foreign" foreign key ("friend_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`alter table "friend_requests" add constraint "friend_requests_from_character_id_foreign" foreign key ("from_character_id") references "characters" ("id") on delete cascade;`);
    this.addSql(`alter table "friend_requests" add constraint "friend_requests_to_character_id_foreign" foreign key ("to_character_id") references "characters" ("id") on delete cascade;`);

    this.addSql(`alter table "equipment" add constraint "equipment_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);
  }

}
