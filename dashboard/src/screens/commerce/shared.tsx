import { Button, Card, CopyButton, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import type { UserErrorValue } from '../../ui/UserErrors';

/** Decimal amounts as the API takes them ("25", "25.50"): major units in a string, never a float. */
export const AMOUNT = /^\d+(\.\d{1,6})?$/;

/** A mutation's thrown error (network, FORBIDDEN) as a userError for `<UserErrorsAlert>`. */
export const thrown = (error: unknown): UserErrorValue[] => [
  { field: null, code: 'ERROR', message: (error as Error).message },
];

/**
 * A create form behind its button: the button (for the roles that may) opens the form in a card
 * titled `title`; `children` gets `close` for the form's Cancel and after a success.
 */
export function CreatePanel({
  label,
  title,
  children,
}: {
  label: string;
  title: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <Group>
        <Button onClick={() => setOpen(true)}>{label}</Button>
      </Group>
    );
  const id = `create-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={3} id={id}>
          {title}
        </Title>
        {children(() => setOpen(false))}
      </Stack>
    </Card>
  );
}

/** A URL to hand to a payer: read-only field, Copy and Open (a new tab). */
export function ShareUrl({ label, url, testId }: { label: string; url: string; testId?: string }) {
  return (
    <Group align="flex-end" wrap="nowrap">
      <TextInput label={label} value={url} readOnly style={{ flex: 1 }} data-testid={testId} />
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Button variant="default" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
      <Button variant="default" component="a" href={url} target="_blank" rel="noreferrer">
        Open
      </Button>
    </Group>
  );
}

/** A short id in monospace (the rows' and pages' technical ids). */
export function Mono({ children }: { children: ReactNode }) {
  return (
    <Text span ff="monospace" size="xs">
      {children}
    </Text>
  );
}

const isEmail = (value: string) => z.email().safeParse(value).success;
const isUrl = (value: string) => /^https?:\/\//i.test(value) && z.url().safeParse(value).success;

/** Form fields (zod 4): an email, an http(s) URL, each optional (empty) or required. */
export const fields = {
  email: (message: string) => z.string().trim().refine(isEmail, message),
  optionalEmail: (message: string) =>
    z
      .string()
      .trim()
      .refine((value) => value === '' || isEmail(value), message),
  url: (message: string) => z.string().trim().refine(isUrl, message),
  optionalUrl: (message: string) =>
    z
      .string()
      .trim()
      .refine((value) => value === '' || isUrl(value), message),
  amount: (message = 'Enter an amount such as 25.00') => z.string().trim().regex(AMOUNT, message),
  currency: () =>
    z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3,5}$/, 'Enter a currency code such as USD'),
};
