import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router';
import { SCREENS } from './screens/registry';
import { useSession } from './session/session';
import { Shell } from './shell/Shell';
import { Empty } from './ui/QueryState';

/** The signed-in screens' frame, or the sign-in screen (back here afterwards) for a visitor without a session. */
function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <Shell />;
}

function NotFound() {
  return <Empty title="There is no such page">Check the address, or use the navigation.</Empty>;
}

const screenRoutes: RouteObject[] = SCREENS.map((screen) => {
  const lazy = async () => ({ Component: (await screen.load()).default });
  return screen.path === '' ? { index: true, lazy } : { path: screen.path, lazy };
});

/** Every route of the dashboard, served under /dashboard (the server answers index.html for each). */
export const router = createBrowserRouter(
  [
    { path: '/sign-in', lazy: async () => ({ Component: (await import('./screens/auth/SignInScreen')).default }) },
    { path: '/sign-up', lazy: async () => ({ Component: (await import('./screens/auth/SignUpScreen')).default }) },
    { path: '/', Component: RequireSession, children: [...screenRoutes, { path: '*', Component: NotFound }] },
  ],
  { basename: '/dashboard' },
);
