import { useQuery } from '@apollo/client/react';
import {
  Alert,
  AppShell,
  Box,
  Burger,
  Button,
  Group,
  NavLink,
  SegmentedControl,
  Select,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useMemo } from 'react';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';
import { graphql } from '../gql';
import { SCREENS } from '../screens/registry';
import { useSignedIn } from '../session/session';
import { LoadError, Loading } from '../ui/QueryState';
import { CurrentContext, type Current } from './current';
import { markSwitch, useFocusAfterSwitch } from './switch-focus';

const ShellQuery = graphql(`
  query DashboardShell {
    me {
      id
      name
      email
      memberships {
        id
        role
        business {
          id
          name
          treasuryEnabled
          verified
        }
      }
    }
    business {
      id
      name
      treasuryEnabled
      verified
    }
    apiCredentials {
      id
      mode
    }
  }
`);

/** The navigation entry a path is under: the longest one that contains it (`/payouts/schedules/1` is Schedules, not Payouts). */
function activeNavPath(pathname: string): string | undefined {
  return SCREENS.filter((screen) => screen.nav)
    .map((screen) => screen.path)
    .filter((path) => (path === '' ? pathname === '/' : pathname === `/${path}` || pathname.startsWith(`/${path}/`)))
    .sort((a, b) => b.length - a.length)[0];
}

/**
 * The frame of every signed-in screen: the business switch, the test/live switch, the navigation,
 * and a test-mode strip that no screen can hide (test data is never mistaken for real money).
 */
export function Shell() {
  const session = useSignedIn();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const { data, error, refetch } = useQuery(ShellQuery);

  const current = useMemo<Current | null>(() => {
    if (!data) return null;
    const membership = data.me.memberships.find((m) => m.business.id === data.business.id);
    const role = membership?.role ?? 'VIEWER';
    return {
      user: { id: data.me.id, name: data.me.name, email: data.me.email },
      business: data.business,
      role,
      memberships: data.me.memberships.map((m) => ({ role: m.role, business: m.business })),
      mode: session.mode,
      can: (...roles) => roles.includes(role),
    };
  }, [data, session.mode]);

  const switches = useFocusAfterSwitch(current !== null);
  const test = session.mode === 'test';
  const hasLiveCredentials = data?.apiCredentials.some((credential) => credential.mode === 'LIVE') ?? true;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <SkipToContent />
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Title order={1} size="h4">
              Tessera
            </Title>
            {current && current.memberships.length > 1 ? (
              <Select
                ref={switches.business}
                aria-label="Business"
                size="xs"
                allowDeselect={false}
                value={current.business.id}
                data={current.memberships.map((m) => ({ value: m.business.id, label: m.business.name }))}
                onChange={(id) => {
                  if (!id) return;
                  markSwitch('business');
                  session.switchBusiness(id);
                }}
              />
            ) : (
              current && <Text size="sm">{current.business.name}</Text>
            )}
          </Group>
          <Group wrap="nowrap">
            <SegmentedControl
              ref={switches.mode}
              aria-label="Mode"
              size="xs"
              value={session.mode}
              onChange={(mode) => {
                markSwitch('mode');
                session.switchMode(mode);
              }}
              data={[
                { value: 'test', label: 'Test' },
                { value: 'live', label: 'Live' },
              ]}
            />
            <Text size="sm" visibleFrom="md">
              {current?.user.email ?? session.email}
            </Text>
            <Button size="xs" variant="default" onClick={() => session.signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Sections">
        {SCREENS.filter(
          (screen) =>
            screen.nav &&
            (!screen.treasury || current?.business.treasuryEnabled) &&
            (!screen.testOnly || session.mode === 'test'),
        ).map((screen) => (
          <NavLink
            key={screen.path}
            component={RouterLink}
            to={`/${screen.path}`}
            label={screen.label}
            variant="filled"
            active={screen.path === activeNavPath(location.pathname)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {test ? (
          <Box
            bg="orange.3"
            c="black"
            fw={600}
            fz="sm"
            mb="md"
            px="sm"
            py={6}
            data-testid="test-mode-banner"
            role="note"
          >
            Test mode: payments, payouts and balances here are simulated. No real money moves.
          </Box>
        ) : (
          !hasLiveCredentials && (
            <Alert color="blue" mb="md" title="Live mode needs live credentials" data-testid="live-setup" role="note">
              This business has no live API credentials yet. The owner creates them once under Developers (Create live
              credentials); live payments and payouts also need the platform's providers configured (docs/live.md).
            </Alert>
          )
        )}
        {error ? (
          <LoadError error={error} retry={() => void refetch()} />
        ) : !current ? (
          <Loading />
        ) : (
          <CurrentContext.Provider value={current}>
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </CurrentContext.Provider>
        )}
      </AppShell.Main>
    </AppShell>
  );
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
