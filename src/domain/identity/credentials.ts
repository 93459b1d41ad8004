import { Mode } from '../shared/modes';
import { randomToken, sha256Hex } from '../shared/crypto';

export const keyPrefix = (mode: Mode) => (mode === Mode.LIVE ? 'bk_live_' : 'bk_test_');
export const secretPrefix = (mode: Mode) => (mode === Mode.LIVE ? 'bs_live_' : 'bs_test_');

export const newApiKey = (mode: Mode) => `${keyPrefix(mode)}${randomToken(24)}`;
export const publishablePrefix = (mode: Mode) => (mode === Mode.LIVE ? 'pk_live_' : 'pk_test_');
export const newPublishableKey = (mode: Mode) => `${publishablePrefix(mode)}${randomToken(24)}`;
export const isPublishableKey = (value: string) => value.startsWith('pk_');
export const newApiSecret = (mode: Mode) => `${secretPrefix(mode)}${randomToken(32)}`;
export const hashApiKey = (key: string) => sha256Hex(key);
export const hintOf = (value: string) => `${value.slice(0, 12)}…`;

export function modeOfKey(key: string): Mode | null {
  if (key.startsWith('bk_live_')) return Mode.LIVE;
  if (key.startsWith('bk_test_')) return Mode.TEST;
  return null;
}

export function modeOfPublishableKey(key: string): Mode | null {
  if (key.startsWith('pk_live_')) return Mode.LIVE;
  if (key.startsWith('pk_test_')) return Mode.TEST;
  return null;
}
