import { defineArea } from '../shared/area';
import { Currency, JournalEntry, JournalTransaction, LedgerAccount } from './ledger.entities';

/** The ledger area: what the registries gather from it (src/areas.ts lists it). */
export const ledgerArea = defineArea({
  name: 'ledger',
  entities: [Currency, LedgerAccount, JournalTransaction, JournalEntry],
});
