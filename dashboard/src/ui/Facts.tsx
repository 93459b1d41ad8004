import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A label above a value: the facts of a detail screen (a payment, a payout, a customer…), laid out in a grid. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}
