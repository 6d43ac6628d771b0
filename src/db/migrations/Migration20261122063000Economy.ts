import { Migration } from '@mikro-orm/migrations';

/** The economy: bank tabs and bank items, ground items (persisted drops and released gravestones). */
export class Migration20261122063000Economy extends Migration {

  override name = 'Migration20261122063000Economy';

  override up(): void | Promise<void> {
    this.addSql(`create table "bank_tabs" ("id" bigserial primary key, "character_id" text not null, "tab_index" smallint not null, "name" text not null);`);
    this.addSql(`alter table "bank_tabs" add constraint "bank_tabs_character_tab_unique" unique ("character_id", "tab_index");`);
    this.addSql(`alter table "bank_tabs" add constraint "bank_tabs_tab_range" check (tab_index >= 0 and tab_index < 10);`);

    this.addSql(`create table "bank_items" ("id" bigserial primary key, "character_id" text not null, "tab_index" smallint not null, "position" int not null, "item_id" text not null, "quantity" int not null);`);
    this.addSql(`alter table "bank_items" add constraint "bank_items_character_item_unique" unique ("character_id", "item_id");`);
    this.addSql(`alter table "bank_items" add constraint "bank_items_tab_range" check (tab_index >= 0 and tab_index < 10);`);
    this.addSql(`alter table "bank_items" add constraint "bank_items_quantity_positive" check (quantity >= 1);`);

    this.addSql(`create table "ground_items" ("id" text not null, "item_id" text not null, "quantity" int not null, "metadata" jsonb null, "x" int not null, "z" int not null, "owner_id" text null, "dropped_at" timestamptz not null, "public_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "ground_items_expires_at_index" on "ground_items" ("expires_at");`);
    this.addSql(`alter table "ground_items" add constraint "ground_items_quantity_positive" check (quantity >= 1);`);

    this.addSql(`alter table "bank_tabs" add constraint "bank_tabs_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);
    this.addSql(`alter table "bank_items" add constraint "bank_items_character_id_foreign" foreign key ("character_id") references "characters" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "bank_items" cascade;`);
    this.addSql(`drop table if exists "bank_tabs" cascade;`);
    this.addSql(`drop table if exists "ground_items" cascade;`);
  }

}
