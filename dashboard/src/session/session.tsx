import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export type Mode = 'test' | 'live';

/** What the dashboard keeps of a sign-in: the JWT and its expiry, and the business and mode chosen. */
export interface Session {
  token: string;
  /** Epoch milliseconds at which the JWT stops working (signIn's `expiresIn` after it was issued). */
  expiresAt: number;
  email: string;
  /** The active business (`X-Service-Business-Id`); null: the user's default business. */
  businessId: string | null;
  mode: Mode;
}

/** Why the user is on the sign-in screen, when it is not their own choice. */
export type SignedOutReason = 'expired' | 'revoked' | null;

/** Where the session is kept in localStorage (also read by the page's first-paint script, shell/boot-frame.js). */
export const STORAGE_KEY = 'tessera.dashboard.session';

/** The stored session while it lasts (boot-frame.js reads it the same way: change both together). */
function stored(): Session | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    return session.expiresAt > Date.now() ? session : null;
  } catch {
    return null;
  }
}

function store(session: Session | null) {
  if (session) window.localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else window.localStorage.removeItem(STORAGE_KEY);
}

interface SessionApi {
  session: Session | null;
  signedOutReason: SignedOutReason;
  signIn: (token: string, expiresInSeconds: number, email: string, businessId?: string | null) => void;
  signOut: (reason?: SignedOutReason) => void;
  switchBusiness: (businessId: string) => void;
  switchMode: (mode: Mode) => void;
}

const SessionContext = createContext<SessionApi | null>(null);

/**
 * The signed-in user's session, kept in localStorage (so a reload or a new tab stays signed in until
 * the JWT expires) and shared by every screen. A JWT lasts an hour (docs/graphql-api.md,
 * Authentication): at its expiry the session ends by itself and the sign-in screen says why.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(stored);
  const [signedOutReason, setReason] = useState<SignedOutReason>(null);

  const update = useCallback((next: Session | null, reason: SignedOutReason = null) => {
    store(next);
    setSession(next);
    setReason(reason);
  }, []);

  useEffect(() => {
    if (!session) return;
    const timer = window.setTimeout(() => update(null, 'expired'), Math.max(0, session.expiresAt - Date.now()));
    return () => window.clearTimeout(timer);
  }, [session, update]);

  const api = useMemo<SessionApi>(
    () => ({
      session,
      signedOutReason,
      signIn: (token, expiresIn, email, businessId = null) =>
        update({ token, expiresAt: Date.now() + expiresIn * 1000, email, businessId, mode: 'test' }),
      signOut: (reason = null) => update(null, reason),
      switchBusiness: (businessId) => session && update({ ...session, businessId }),
      switchMode: (mode) => session && update({ ...session, mode }),
    }),
    [session, signedOutReason, update],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession outside SessionProvider');
  return api;
}

/** The session of a screen behind sign-in (the router only renders those with one). */
export function useSignedIn(): Session & Omit<SessionApi, 'session'> {
  const { session, ...api } = useSession();
  if (!session) throw new Error('useSignedIn without a session');
  return { ...session, ...api };
}
