import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import type { Role } from '../actor';

export interface UserView {
  id: string;
  email: string;
  name: string;
  role: Role;
  organizationId: number;
  mfaEnabled: boolean;
  emailVerified: boolean;
}

/** A user with their membership (one organization per user in this gateway). */
export async function loadUserView(db: Pick<ControlPlaneDb, 'user' | 'membership'>, userId: string): Promise<UserView> {
  const user = await db.user.findUnique({ where: { id: userId } });
  const membership = await db.membership.findFirst({ where: { userId }, orderBy: { createdAt: 'asc' } });
  if (!user || !membership) throw new DomainError('NOT_FOUND', 'Not found');
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: membership.role as Role,
    organizationId: Number(membership.organizationId),
    mfaEnabled: user.mfaEnabled,
    emailVerified: user.emailVerified,
  };
}
