import jwt from 'jsonwebtoken';
import { Mode } from '../shared/modes';

export type TokenClaims =
  { kind: 'api'; sub: string; bid: string; mode: Mode; kv: number } | { kind: 'dashboard'; sub: string };

const ISSUER = 'tessera';

/** HS256 JWTs; the algorithm is pinned on verify and expiry is always enforced. */
export class TokenSigner {
  constructor(
    private readonly secret: string,
    readonly ttlSeconds: number,
  ) {}

  sign(claims: TokenClaims): string {
    return jwt.sign(claims, this.secret, { algorithm: 'HS256', expiresIn: this.ttlSeconds, issuer: ISSUER });
  }

  /** When a valid token expires; null for any invalid, expired or foreign token. */
  expiresAt(token: string): Date | null {
    if (!this.verify(token)) return null;
    const { exp } = jwt.decode(token) as { exp: number };
    return new Date(exp * 1000);
  }

  /** Returns the claims, or null for any invalid, expired or foreign token. */
  verify(token: string): TokenClaims | null {
    try {
      const payload = jwt.verify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        ignoreExpiration: false,
      });
      if (typeof payload !== 'object' || payload === null) return null;
      const claims = payload as Record<string, unknown>;
      if (typeof claims.exp !== 'number') return null;
      if (
        claims.kind === 'api' &&
        typeof claims.sub === 'string' &&
        typeof claims.bid === 'string' &&
        (claims.mode === Mode.TEST || claims.mode === Mode.LIVE) &&
        typeof claims.kv === 'number'
      ) {
        return { kind: 'api', sub: claims.sub, bid: claims.bid, mode: claims.mode, kv: claims.kv };
      }
      if (claims.kind === 'dashboard' && typeof claims.sub === 'string') return { kind: 'dashboard', sub: claims.sub };
      return null;
    } catch {
      return null;
    }
  }
}
