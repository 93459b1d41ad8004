import { createContext, useContext } from 'react';

export type Role = 'OWNER' | 'ADMIN' | 'DEVELOPER' | 'VIEWER';

export interface CurrentBusiness {
  id: string;
  name: string;
  treasuryEnabled: boolean;
  verified: boolean;
}

/** Who is signed in, in which business, with which role: what screens need to show or hide actions. */
export interface Current {
  user: { id: string; name: string; email: string };
  business: CurrentBusiness;
  role: Role;
  memberships: { role: Role; business: CurrentBusiness }[];
  mode: 'test' | 'live';
  /** True when the role is one of `roles` (the roles docs/graphql-api.md lists for the action). */
  can: (...roles: Role[]) => boolean;
}

export const CurrentContext = createContext<Current | null>(null);

export function useCurrent(): Current {
  const current = useContext(CurrentContext);
  if (!current) throw new Error('useCurrent outside the signed-in shell');
  return current;
}

/** Roles that may change things (every write action on screen is hidden from VIEWER). */
export const WRITERS: Role[] = ['OWNER', 'ADMIN', 'DEVELOPER'];
