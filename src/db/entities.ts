import { AREAS } from '../areas';
import { BusinessSettings } from '../domain/shared/business-settings.entity';
import { SandboxMail } from '../providers/mail/sandbox-mail.entity';
import {
  SanctionsEntryRow,
  SanctionsListRow,
  SanctionsMatchRow,
} from '../providers/screening/lists/sanctions.entities';
import { MasterKeyCheck } from './master-key-check.entity';

/** Every area's entities (src/areas.ts), and the kernel's, which belong to no area. */
export const entities = [
  ...AREAS.flatMap((area) => area.domain.entities),
  BusinessSettings,
  MasterKeyCheck,
  SandboxMail,
  SanctionsListRow,
  SanctionsEntryRow,
  SanctionsMatchRow,
];

/**
 * The migrations the areas bring (their manifests' `migrations`), besides the history in
 * `migrations/`; TypeORM runs the union in the order of the timestamps ending their names.
 */
export const areaMigrations = AREAS.flatMap((area) => area.domain.migrations ?? []);
