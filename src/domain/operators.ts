/**
 * Operators and what each role may do (docs/contract.md, Operators and the audit trail): a VIEWER
 * reads, an OPERATOR also changes clients and money, an ADMIN also onboards clients, rotates their
 * tokens and manages operators. Each role includes the ones below it.
 */
export const ROLES = ['VIEWER', 'OPERATOR', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { VIEWER: 0, OPERATOR: 1, ADMIN: 2 };

/** Whether `role` may do what `required` is needed for. */
export const roleAllows = (role: Role, required: Role): boolean => RANK[role] >= RANK[required];

/** Who made a request: the break-glass ADMIN_TOKEN, an operator's token, or Cloudflare Access. */
export type ActorKind = 'ADMIN_TOKEN' | 'OPERATOR' | 'ACCESS';

export interface Actor {
  kind: ActorKind;
  role: Role;
  operatorId?: string;
  email?: string;
}

export const BREAK_GLASS: Actor = { kind: 'ADMIN_TOKEN', role: 'ADMIN' };

/** An operator token: `opk_` + 32 random bytes, base64url (43 characters). */
export const OPERATOR_TOKEN = /^opk_[A-Za-z0-9_-]{43}$/;

/** What the trail keeps of the actor: never a token. */
export const actorView = (actor: Omit<Actor, 'role'>) => ({
  kind: actor.kind,
  ...(actor.operatorId !== undefined && { operatorId: actor.operatorId }),
  ...(actor.email !== undefined && { email: actor.email }),
});
