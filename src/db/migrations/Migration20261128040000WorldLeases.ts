import { Migration } from '@mikro-orm/migrations';

/**
 * Fenced world ownership (docs/scaling.md "Leases and fencing"). A world number is owned through a lease: `epoch`
 * (from the `world_epochs` sequence, so it only grows) and `lease_until` (PostgreSQL's clock). A claim names the
 * epoch of the world it was made in, and counts only while that world's row still has it. Rows of an earlier run
 * get an epoch and a lease that has already lapsed: the next world to open takes their numbers over.
 */
export class Migration20261128040000WorldLeases extends Migration {

  override name = 'Migration20261128040000WorldLeases';

  override up(): void | Promise<void> {
    this.addSql(`create sequence if not exists "world_epochs";`);
    this.addSql(`alter table "worlds" add column "epoch" bigint not null default nextval('world_epochs');`);
    this.addSql(`alter table "worlds" alter column "epoch" drop default;`);
    this.addSql(`alter table "worlds" add column "lease_until" timestamptz not null default now();`);
    this.addSql(`alter table "worlds" alter column "lease_until" drop default;`);
    this.addSql(`alter table "character_worlds" add column "epoch" bigint not null default 0;`);
    this.addSql(`alter table "character_worlds" alter column "epoch" drop default;`);
    this.addSql(`create index "character_worlds_world_epoch_index" on "character_worlds" ("world", "epoch");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "character_worlds_world_epoch_index";`);
    this.addSql(`alter table "character_worlds" drop column if exists "epoch";`);
    this.addSql(`alter table "worlds" drop column if exists "lease_until";`);
    this.addSql(`alter table "worlds" drop column if exists "epoch";`);
    this.addSql(`drop sequence if exists "world_epochs";`);
  }

}
