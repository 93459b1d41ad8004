import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { ScreenedRequest } from '../port';

/**
 * The sanctions lists the operator loaded from their official files (`tessera sanctions load`),
 * one row per list: the file's own date, when it was loaded, how many entries, the file's hash.
 */
@Entity('sanctions_lists')
export class SanctionsListRow {
  /** `ofac`, `un` or `eu`. */
  @PrimaryColumn('text') list: string;

  /** The publication or generation date the file gives; null when it gives none that reads. */
  @Column('timestamptz', { nullable: true }) publishedAt: Date | null;

  @Column('timestamptz') loadedAt: Date;

  @Column('integer') entries: number;

  /** SHA-256 of the file as loaded, hex. */
  @Column('text') sha256: string;

  /** Where the file was read from: a path or a URL. */
  @Column('text') source: string;
}

/** An entry of a loaded list: a listed person or entity with its names (replaced whole by each load of its list). */
@Entity('sanctions_entries')
@Unique('uq_sanctions_entries_entry', ['list', 'entryId'])
export class SanctionsEntryRow {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('text') list: string;

  /** The list's own id of the entry (OFAC uid, UN reference number, EU logicalId). */
  @Column('text') entryId: string;

  /** `individual` or `entity`. */
  @Column('text') type: string;

  @Column('text') primaryName: string;

  /** The strong aliases (matched). */
  @Column('text', { array: true }) aliases: string[];

  /** The aliases the list calls weak or low quality (kept, not matched). */
  @Column('text', { array: true }) weakAliases: string[];

  /** The normalised form of each matched name (primary name, then the aliases), as matching compares them. */
  @Column('text', { array: true }) normalizedNames: string[];
}

/**
 * A live screening that matched a listed entry: which one, how closely, the name screened, for
 * which business and what it refused. The operator sees them (`tessera sanctions matches`, GraphQL's
 * `operatorSanctionsMatches`); the merchant never does.
 */
@Entity('sanctions_matches')
@Index('ix_sanctions_matches_created', ['createdAt'])
@Check('ck_sanctions_matches_request', `"request" IN ('recipient', 'payout_schedule')`)
export class SanctionsMatchRow {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('text') list: string;
  @Column('text') entryId: string;
  @Column('text') entryName: string;
  /** The listed name that matched (the primary name or an alias). */
  @Column('text') matchedName: string;
  @Column('text') screenedName: string;
  @Column('double precision') score: number;

  @Column('uuid', { nullable: true }) businessId: string | null;
  @Column('boolean') livemode: boolean;
  /**
   * What the match refused: a recipient create or a payout schedule (its create or update); null
   * for a match recorded before Tessera kept it (refused all the same).
   */
  @Column('text', { nullable: true }) request: ScreenedRequest | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
