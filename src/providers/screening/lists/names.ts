/** The sanctions lists Tessera loads (src/providers/screening/lists/formats.ts reads their files). */
export type SanctionsListName = 'ofac' | 'un' | 'eu';
export const SANCTIONS_LISTS: readonly SanctionsListName[] = ['ofac', 'un', 'eu'];

/** Where each list is published (the operator's `sanctions load --list <list>` without `--file`). */
export const OFFICIAL_URLS: Record<SanctionsListName, string> = {
  ofac: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.XML',
  un: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml',
  eu: 'https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw',
};
