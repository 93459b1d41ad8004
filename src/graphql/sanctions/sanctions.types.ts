import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { SanctionsListRow, SanctionsMatchRow } from '../../domain/sanctions';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';

/** The official lists Tessera loads (`tessera sanctions load --list ofac|un|eu`). */
export enum SanctionsListName {
  OFAC = 'ofac',
  UN = 'un',
  EU = 'eu',
}

registerEnumType(SanctionsListName, {
  name: 'SanctionsListName',
  description: 'An official sanctions list live recipients are screened against',
  valuesConfig: {
    OFAC: { description: 'The U.S. Treasury OFAC SDN list, with its aliases (SDN.XML)' },
    UN: { description: 'The UN Security Council consolidated list' },
    EU: { description: 'The EU consolidated financial sanctions list' },
  },
});

/** What a recorded match did to the merchant's request. */
export enum SanctionsMatchOutcome {
  RECIPIENT_REFUSED = 'recipient',
  PAYOUT_SCHEDULE_REFUSED = 'payout_schedule',
  REFUSED = 'unrecorded',
}

registerEnumType(SanctionsMatchOutcome, {
  name: 'SanctionsMatchOutcome',
  description:
    "What the match did to the merchant's request: every match refuses it (SANCTIONS_MATCH), and nothing of it is saved",
  valuesConfig: {
    RECIPIENT_REFUSED: { description: 'A recipient create was refused; the recipient was not saved' },
    PAYOUT_SCHEDULE_REFUSED: {
      description: "A payout schedule's create or update was refused for one of its recipients; it was not saved",
    },
    REFUSED: { description: 'Refused; recorded before Tessera kept which request it was' },
  },
});

@ObjectType({ description: 'An official sanctions list as loaded from its published file (operator only)' })
export class SanctionsList {
  @Field(() => SanctionsListName, { description: 'Which list' }) list: SanctionsListName;
  @Field({ description: 'Where the file was read from: a path or a URL' }) source: string;
  @Field(() => Date, {
    nullable: true,
    description: 'The publication or generation date the file gives; null when it gives none that reads',
  })
  publishedAt: Date | null;
  @Field(() => Date, { description: 'When the operator loaded it' }) loadedAt: Date;
  @Field(() => Int, { description: 'How many entries (persons and entities) it holds' }) entryCount: number;
  @Field({ description: 'The SHA-256 of the file as loaded, hex' }) sha256: string;

  static from(row: SanctionsListRow): SanctionsList {
    return Object.assign(new SanctionsList(), {
      list: row.list as SanctionsListName,
      source: row.source,
      publishedAt: row.publishedAt,
      loadedAt: row.loadedAt,
      entryCount: row.entries,
      sha256: row.sha256,
    });
  }
}

@ObjectType({
  description:
    'A live screening that matched an entry of a loaded sanctions list (operator only: the merchant hears only SANCTIONS_MATCH)',
  implements: Node,
})
export class SanctionsMatch extends Node {
  @Field(() => Date, { description: 'When the name was screened and matched' }) createdAt: Date;
  @Field(() => ID, { nullable: true, description: 'The business the recipient was screened for' })
  businessId: string | null;
  @Field({ description: 'Whether it was screened in live mode' }) livemode: boolean;
  @Field({ description: 'The name screened (a recipient label or account holder name), as the merchant gave it' })
  screenedName: string;
  @Field(() => SanctionsListName, { description: "The matched entry's list" }) list: SanctionsListName;
  @Field({ description: "The list's own id of the entry (OFAC uid, UN reference number, EU logicalId)" })
  entryId: string;
  @Field({ description: "The entry's primary name" }) entryName: string;
  @Field({ description: "The entry's name that matched (its primary name or an alias)" }) matchedName: string;
  @Field(() => Float, { description: 'How similar the two names are, from 0 to 1 (a match is at least 0.92)' })
  score: number;
  @Field(() => SanctionsMatchOutcome, { description: "What the match did to the merchant's request" })
  outcome: SanctionsMatchOutcome;

  static from(row: SanctionsMatchRow): SanctionsMatch {
    return Object.assign(new SanctionsMatch(), {
      id: row.id,
      createdAt: row.createdAt,
      businessId: row.businessId,
      livemode: row.livemode,
      screenedName: row.screenedName,
      list: row.list as SanctionsListName,
      entryId: row.entryId,
      entryName: row.entryName,
      matchedName: row.matchedName,
      score: row.score,
      outcome: (row.request ?? 'unrecorded') as SanctionsMatchOutcome,
    });
  }
}

@ObjectType({ description: 'A page of recorded sanctions matches, newest first' })
export class SanctionsMatchConnection extends Connection(SanctionsMatch, 'SanctionsMatch') {}
