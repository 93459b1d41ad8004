import { AreaChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { HomeOverviewQuery } from '../../gql/graphql';
import { formatDate, formatMoney } from '../../ui/format';

type Volume = HomeOverviewQuery['month'];

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The start of today and of this month in the browser's time zone, and the zone's IANA name (the API buckets in it). */
export function volumeWindow(now = new Date()) {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  const month = new Date(now.getFullYear(), now.getMonth(), 1);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return {
    monthFrom: month.toISOString(),
    to: tomorrow.toISOString(),
    todayStart: today.toISOString(),
    // The API takes Area/Location names and UTC (docs/graphql-api.md, Payment volume).
    timeZone: zone && zone.includes('/') ? zone : 'UTC',
  };
}

/**
 * Today's and this month's volume per currency (amounts are never added across currencies) and a
 * chart of this month by day for the chosen currency: one `paymentVolume` query, by day in the
 * browser's time zone.
 */
export function VolumeCard({ month, todayStart }: { month: Volume; todayStart: string }) {
  const currencies = month.totals.map((total) => total.currency);
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen && currencies.includes(chosen) ? chosen : currencies[0];
  const todayTime = new Date(todayStart).getTime();
  const today = (code: string) =>
    month.buckets.find((bucket) => bucket.currency === code && new Date(bucket.start).getTime() === todayTime);

  if (!currency) {
    return (
      <Card withBorder>
        <Title order={3} size="h4">
          Volume
        </Title>
        <Text size="sm" c="dimmed" mt="xs">
          No captured payments this month yet. Volume shows here by day as payments complete.
        </Text>
      </Card>
    );
  }

  const data = month.buckets
    .filter((bucket) => bucket.currency === currency)
    .map((bucket) => ({ day: formatDate(bucket.start), volume: Number(bucket.amount.amount), count: bucket.count }));

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            Volume
          </Title>
          {currencies.length > 1 && (
            <SegmentedControl aria-label="Currency" size="xs" value={currency} onChange={setChosen} data={currencies} />
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {month.totals.map((total) => {
            const day = today(total.currency);
            return (
              <div key={total.currency} data-volume={total.currency}>
                <Text size="xs" c="dimmed">
                  Today ({total.currency})
                </Text>
                <Text fw={700} data-testid={`volume-today-${total.currency}`}>
                  {day ? formatMoney(day.amount) : formatMoney({ amount: '0', currency: total.currency })}
                  <Text span size="xs" c="dimmed">
                    {' '}
                    · {plural(day?.count ?? 0, 'payment')}
                  </Text>
                </Text>
                <Text size="xs" c="dimmed" mt={4}>
                  This month ({total.currency})
                </Text>
                <Text fw={700} data-testid={`volume-month-${total.currency}`}>
                  {formatMoney(total.amount)}
                  <Text span size="xs" c="dimmed">
                    {' '}
                    · {plural(total.count, 'payment')}
                  </Text>
                </Text>
              </div>
            );
          })}
        </SimpleGrid>
        <figure style={{ margin: 0 }}>
          <AreaChart
            h={220}
            data={data}
            dataKey="day"
            series={[{ name: 'volume', label: `Volume (${currency})`, color: 'indigo.8' }]}
            curveType="monotone"
            withDots={false}
            valueFormatter={(value) => formatMoney({ amount: value.toFixed(2), currency })}
          />
          <figcaption className="visually-hidden">
            Captured volume in {currency} by day this month:{' '}
            {data.map((point) => `${point.day} ${point.volume}`).join(', ')}
          </figcaption>
        </figure>
      </Stack>
    </Card>
  );
}
