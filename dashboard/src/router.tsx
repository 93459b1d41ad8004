import type { ApolloClient } from '@apollo/client';
import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router';
import { prefetch } from './api/prefetch';
import { SCREENS } from './screens/registry';
import { useSession } from './session/session';
import { useBootFrameRemoved } from './shell/boot';
import { Shell, shellQuery } from './shell/Shell';
import { Empty } from './ui/QueryState';

/**
 * The signed-in screens' frame, or the sign-in screen (back here afterwards) for a visitor without a
 * session; either way it takes the place of the page's first-paint frame (shell/boot.ts).
 */
function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  useBootFrameRemoved();
  if (!session) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <Shell />;
}

function NotFound() {
  return <Empty title="There is no such page">Check the address, or use the navigation.</Empty>;
}

/**
 * Every route of the dashboard, served under /dashboard (the server answers index.html for each).
 * With a signed-in client, entering a route sends the queries it draws with at once: the frame's
 * (who, which business, which role) and the screen's first one (a screen module's `prefetch`), side
 * by side while the screen's code loads, instead of one after the other once each is rendered.
 */
export function createDashboardRouter(signedIn: ApolloClient | null) {
  const screenRoutes: RouteObject[] = SCREENS.map((screen) => {
    const lazy = async () => {
      const { default: Component, prefetch: firstQuery } = await screen.load();
      if (!signedIn || !firstQuery) return { Component };
      return {
        Component,
        loader: ({ params }: { params: Parameters<typeof firstQuery>[0] }) => {
          for (const query of [firstQuery(params)].flat()) prefetch(signedIn, query);
          return null;
        },
      };
    };
    return screen.path === '' ? { index: true, lazy } : { path: screen.path, lazy };
  });

  return createBrowserRouter(
    [
      { path: '/sign-in', lazy: async () => ({ Component: (await import('./screens/auth/SignInScreen')).default }) },
      { path: '/sign-up', lazy: async () => ({ Component: (await import('./screens/auth/SignUpScreen')).default }) },
      {
        path: '/',
        Component: RequireSession,
        loader: () => {
          if (signedIn) prefetch(signedIn, shellQuery);
          return null;
        },
        // The frame's query is sent once per router (one per signed-in context), not at every navigation.
        shouldRevalidate: () => false,
        children: [...screenRoutes, { path: '*', Component: NotFound }],
      },
    ],
    { basename: '/dashboard' },
  );
}
