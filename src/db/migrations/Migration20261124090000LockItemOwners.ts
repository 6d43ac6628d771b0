import { Migration } from '@mikro-orm/migrations';

/**
 * `lock_item_owners(ids)`: locks the characters rows (in id order) and then reads their inventory and equipment,
 * in one round trip. It is a VOLATILE plpgsql function so each of its statements takes a fresh snapshot under
 * READ COMMITTED: the reads see every item change committed while the lock was being waited for (a single
 * `select … for update` joined to the slots would read them as of before the wait).
 */
export class Migration20261124090000LockItemOwners extends Migration {

  override name = 'Migration20261124090000LockItemOwners';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "lock_item_owners"("owner_ids" text[])
returns table ("container" text, "character_id" text, "slot" text, "item_id" text, "quantity" int, "metadata" jsonb)
language plpgsql volatile as $$
#variable_conflict use_column
begin
  return query select 'character'::text, c.id, null::text, null::text, null::int, null::jsonb
    from (select ch.id from characters ch where ch.id = any(owner_ids) order by ch.id for update) c;
  return query select 'inventory'::text, i.character_id, i.slot::text, i.item_id, i.quantity, i.metadata
    from inventory i where i.character_id = any(owner_ids);
  return query select 'equipment'::text, e.character_id, e.slot_type, e.item_id, e.quantity, e.metadata
    from equipment e where e.character_id = any(owner_ids);
end
$$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "lock_item_owners"(text[]);`);
  }

}
