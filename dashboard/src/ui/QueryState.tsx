import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The three states every screen shows before its content: loading (a spinner with a label for
 * screen readers), an error (what the API said, and a retry), and empty (what to do next).
 */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

export function LoadError({ error, retry }: { error: { message: string }; retry?: () => void }) {
  return (
    <Alert color="red" title="This could not be loaded" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error.message}</Text>
        {retry && (
          <Button size="xs" variant="light" color="red" onClick={retry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Center py="xl">
      <Stack align="center" gap={4}>
        <Text fw={600}>{title}</Text>
        {children && (
          <Text size="sm" c="dimmed" ta="center" maw={420}>
            {children}
          </Text>
        )}
      </Stack>
    </Center>
  );
}
