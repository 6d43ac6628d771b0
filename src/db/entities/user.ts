import { defineEntity, p } from '@mikro-orm/core';

/** An account: authentication identity (identity provider subject, social ids) and roles. */
export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.text().primary(),
    idpSubject: p.text().nullable().unique(),
    socialIds: p.json<Record<string, string>>().nullable(),
    displayName: p.text(),
    roles: p.json<string[]>().onCreate(() => []),
    isTemporary: p.boolean().default(false),
    expiresAt: p.datetime().nullable().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
