/** A member's role in a business (design: identity). */
export enum Role {
  OWNER = 'OWNER',
  ADMIN = 'ADMIN',
  DEVELOPER = 'DEVELOPER',
  VIEWER = 'VIEWER',
}

/** The two modes every business has: test (the sandbox providers) and live (real money). */
export enum Mode {
  TEST = 'test',
  LIVE = 'live',
}

export const isLive = (mode: Mode) => mode === Mode.LIVE;
