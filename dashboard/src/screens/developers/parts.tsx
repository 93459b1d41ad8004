import { ActionIcon, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';

/** A secret shown once (a new key): the value in full, selectable, with a copy button. */
export function ShownOnce({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid={testId} style={{ wordBreak: 'break-all' }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="default" aria-label={`Copy the ${label.toLowerCase()}`} onClick={copy}>
                {copied ? '✓' : '⧉'}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </div>
  );
}

/** A caught error (network, FORBIDDEN) as the userError shape UserErrorsAlert shows. */
export const thrown = (error: unknown) => [{ field: null, code: 'ERROR', message: (error as Error).message }];
