import { useQuery } from '@apollo/client/react';
import { Alert, NavLink, Select, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useMemo } from 'react';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';
import { screenQuery } from '../api/prefetch';
import { graphql } from '../gql';
import { useSignedIn } from '../session/session';
import { LoadError, Loading } from '../ui/QueryState';
import { CurrentContext, type Current } from './current';
import { Frame, NAVIGATION, TestModeBanner, activeNavPath } from './Frame';
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

/** The frame's query, sent by the router as a signed-in route is entered (router.tsx). */
export const shellQuery = screenQuery(ShellQuery, {});

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
    <Frame
      navOpened={opened}
      onToggleNav={toggle}
      business={
        current && current.memberships.length > 1 ? (
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
        )
      }
      mode={session.mode}
      modeRef={switches.mode}
      onModeChange={(mode) => {
        markSwitch('mode');
        session.switchMode(mode);
      }}
      email={current?.user.email ?? session.email}
      onSignOut={() => session.signOut()}
      navigation={NAVIGATION.filter(
        (screen) => (!screen.treasury || current?.business.treasuryEnabled) && (!screen.testOnly || test),
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
      notice={
        test ? (
          <TestModeBanner />
        ) : (
          !hasLiveCredentials && (
            <Alert color="blue" mb="md" title="Live mode needs live credentials" data-testid="live-setup" role="note">
              This business has no live API credentials yet. The owner creates them once under Developers (Create live
              credentials); live payments and payouts also need the platform's providers configured (docs/live.md).
            </Alert>
          )
        )
      }
    >
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
    </Frame>
  );
}
