import { Badge } from '@mantine/core';
import { humanize } from './format';

const COLOURS: Record<string, string> = {
  COMPLETED: 'green',
  SETTLED: 'teal',
  SUCCEEDED: 'green',
  PAID: 'green',
  APPROVED: 'green',
  ACTIVE: 'green',
  PENDING: 'yellow',
  PROCESSING: 'yellow',
  REQUIRES_ACTION: 'orange',
  AWAITING_APPROVAL: 'orange',
  IN_REVIEW: 'orange',
  FAILED: 'red',
  REJECTED: 'red',
  CANCELLED: 'gray',
  EXPIRED: 'gray',
  REFUNDED: 'violet',
  PARTIALLY_REFUNDED: 'violet',
  PERMANENTLY_FAILED: 'red',
  ENABLED: 'green',
  DISABLED: 'gray',
};

/** A status as a coloured badge; the text is the status in words, so colour is never the only signal. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLOURS[status.toUpperCase()] ?? 'blue'} variant="dot" data-status={status}>
      {humanize(status)}
    </Badge>
  );
}
