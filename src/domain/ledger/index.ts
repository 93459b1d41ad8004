import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { LEDGER_ERRORS } from './ledger.errors';
import { Currency, JournalEntry, JournalTransaction, LedgerAccount } from './ledger.entities';
import { LedgerService } from './ledger.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { AccountKind, JournalEntry, JournalTransaction, LedgerAccount } from './ledger.entities';
export { LedgerErrorCode } from './ledger.errors';
export type { WalletDebit } from './ledger.events';
export { LedgerService } from './ledger.service';
export type { PostingLine } from './ledger.service';
export { LedgerTopic } from './ledger.topics';
export type { WalletBalanceChange } from './ledger.topics';

declare module '../core' {
  interface Core {
    ledger: LedgerService;
  }
}

/** The ledger area: what the registries gather from it (src/areas.ts lists it). */
export const ledgerArea = defineArea<Core>({
  name: 'ledger',
  entities: [Currency, LedgerAccount, JournalTransaction, JournalEntry],
  services: {
    ledger: (core) => new LedgerService(core.bus, core.pubSub),
  },
  errors: LEDGER_ERRORS,
});
