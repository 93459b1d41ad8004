import { useQuery } from '@apollo/client/react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { graphql } from '../../gql';
import type { RecipientPickerOptionsQuery } from '../../gql/graphql';
import { maskedDestination } from './payouts.format';

/** What a recipient shows wherever it is listed or picked: its label, rail, currency, country and masked details. */
const RecipientSummary = graphql(`
  fragment PayoutRecipientSummary on PayoutRecipient {
    id
    label
    rail
    currency
    country
    detailsMasked
  }
`);

const RecipientOptions = graphql(`
  query RecipientPickerOptions($search: String) {
    payoutRecipients(first: 20, search: $search) {
      edges {
        node {
          ...PayoutRecipientSummary
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`);

// Spread by name (codegen reads it from this file): here and in the recipients list.
void RecipientSummary;

export type PickedRecipient = RecipientPickerOptionsQuery['payoutRecipients']['edges'][number]['node'];

const optionLabel = (recipient: PickedRecipient) =>
  `${recipient.label} (${maskedDestination(recipient.detailsMasked)}, ${recipient.currency})`;

/**
 * A recipient chosen among all of the business's, however many: what the user types is searched on
 * the server (payoutRecipients(search), the label containing it), 20 answers at a time.
 */
export function RecipientPicker({
  value,
  onChange,
  error,
  label = 'Recipient',
  'aria-label': ariaLabel,
}: {
  value: PickedRecipient | null;
  onChange: (recipient: PickedRecipient | null) => void;
  error?: string;
  label?: string;
  'aria-label'?: string;
}) {
  const [search, setSearch] = useState('');
  // Once a recipient is chosen the box shows its label: that text lists every recipient, not none.
  const typed = value && search === optionLabel(value) ? '' : search.trim();
  const [debounced] = useDebouncedValue(typed, 250);
  const { data, loading, error: loadError } = useQuery(RecipientOptions, { variables: { search: debounced || null } });
  const found = data?.payoutRecipients.edges.map((edge) => edge.node) ?? [];
  const options = value && !found.some((recipient) => recipient.id === value.id) ? [value, ...found] : found;
  const more = data?.payoutRecipients.pageInfo.hasNextPage ?? false;

  return (
    <Select
      label={label}
      aria-label={ariaLabel}
      placeholder="Type to search recipients"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched the text; Mantine's own filter would match the option label again.
      filter={({ options: all }) => all}
      value={value?.id ?? null}
      onChange={(id) => onChange(options.find((recipient) => recipient.id === id) ?? null)}
      data={options.map((recipient) => ({ value: recipient.id, label: optionLabel(recipient) }))}
      nothingFoundMessage={
        loadError ? loadError.message : loading || typed !== debounced ? 'Searching…' : 'No recipient matches'
      }
      description={more ? 'The first 20 matches: type more of the name to narrow them' : undefined}
      error={error}
    />
  );
}
