import { Anchor, Container, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of the screens before sign-in: the product's name, the form, and a link to the other screen. */
export function AuthFrame({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer: { text: string; link: string; to: string };
}) {
  return (
    <Container size={440} py={60} component="main">
      <Text ta="center" fw={700} size="xl">
        Tessera
      </Text>
      <Title order={1} ta="center" size="h2" mt="xs">
        {title}
      </Title>
      <Paper withBorder shadow="sm" p="lg" mt="lg" radius="md">
        {children}
      </Paper>
      <Text ta="center" size="sm" mt="md">
        {footer.text}{' '}
        <Anchor component={Link} to={footer.to}>
          {footer.link}
        </Anchor>
      </Text>
    </Container>
  );
}
