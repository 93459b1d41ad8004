import { AppShell, Box, Burger, Button, Group, SegmentedControl, Text, Title } from '@mantine/core';
import type { ReactNode, Ref } from 'react';
import { SCREENS, type ScreenEntry } from '../screens/registry';
import type { Mode } from '../session/session';

const MODES = [
  { value: 'test', label: 'Test' },
  { value: 'live', label: 'Live' },
];

export interface FrameProps {
  /** The navigation shown on a narrow screen (behind the burger). */
  navOpened: boolean;
  onToggleNav?: () => void;
  /** The business's name or its switch, after the product's name. */
  business?: ReactNode;
  mode: Mode;
  onModeChange?: (mode: Mode) => void;
  modeRef?: Ref<HTMLDivElement>;
  email: string;
  onSignOut?: () => void;
  /** The navigation's entries. */
  navigation: ReactNode;
  /** What the screen shows above its content: the test-mode strip, or the live mode's setup note. */
  notice?: ReactNode;
  children: ReactNode;
}

/**
 * The frame's layout: the header (product, business, mode switch, account), the side navigation and
 * the main area. Drawn by the Shell with the signed-in context, and by the build as the page's first
 * paint before any script has run (BootFrame.tsx): one layout, so the one replaces the other in place.
 */
export function Frame(props: FrameProps) {
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !props.navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <SkipToContent />
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger
              opened={props.navOpened}
              onClick={props.onToggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label="Navigation"
            />
            <Title order={1} size="h4">
              Tessera
            </Title>
            {props.business}
          </Group>
          <Group wrap="nowrap">
            <SegmentedControl
              ref={props.modeRef}
              aria-label="Mode"
              size="xs"
              value={props.mode}
              onChange={(mode) => props.onModeChange?.(mode as Mode)}
              data={MODES}
            />
            <Text size="sm" visibleFrom="md" data-frame-email>
              {props.email}
            </Text>
            <Button size="xs" variant="default" onClick={props.onSignOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Sections">
        {props.navigation}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {props.notice}
        {props.children}
      </AppShell.Main>
    </AppShell>
  );
}

/** The strip no screen can hide in test mode: test data is never mistaken for real money. */
export function TestModeBanner() {
  return (
    <Box bg="orange.3" c="black" fw={600} fz="sm" mb="md" px="sm" py={6} data-testid="test-mode-banner" role="note">
      Test mode: payments, payouts and balances here are simulated. No real money moves.
    </Box>
  );
}

/** The screens of the side navigation, in the registry's order. */
export const NAVIGATION: ScreenEntry[] = SCREENS.filter((screen) => screen.nav);

/**
 * The navigation entry a path is under: the longest one that contains it (`/payouts/schedules/1` is
 * Schedules, not Payouts). The page's first-paint script (boot-frame.js, which runs before any module
 * and so cannot import this) applies the same rule: change both together.
 */
export function activeNavPath(pathname: string): string | undefined {
  return NAVIGATION.map((screen) => screen.path)
    .filter((path) => (path === '' ? pathname === '/' : pathname === `/${path}` || pathname.startsWith(`/${path}/`)))
    .sort((a, b) => b.length - a.length)[0];
}

/** The first stop of the Tab key: a keyboard user goes past the header and the navigation to the screen. */
function SkipToContent() {
  return (
    <a
      className="skip-link"
      href="#main"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      Skip to content
    </a>
  );
}
