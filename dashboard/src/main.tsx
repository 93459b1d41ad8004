// Mantine's styles of the components the app uses (vite-mantine-styles.ts); the date pickers' and the
// charts' own sheets come with the screens that draw them.
import 'virtual:mantine-styles';
import '@mantine/notifications/styles.css';
import './app.css';
import { ApolloProvider } from '@apollo/client/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode, useEffect, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAnonymousClient, createDashboardClient } from './api/client';
import { createDashboardRouter } from './router';
import { SessionProvider, useSession } from './session/session';
import { cssVariablesResolver, theme } from './theme';

const anonymous = createAnonymousClient();

/**
 * One Apollo Client per signed-in context (token, business, mode): switching business or mode
 * starts from an empty cache and a new subscription socket, so no screen shows the other context's data.
 */
function App() {
  const { session, signOut } = useSession();
  const token = session?.token;
  const businessId = session?.businessId;
  const mode = session?.mode;
  const client = useMemo(
    () => (session ? createDashboardClient(session, () => signOut('expired')) : null),
    // A new client only when the context changes, not on every session object.
    [token, businessId, mode],
  );
  useEffect(() => () => client?.dispose(), [client]);
  const router = useMemo(() => createDashboardRouter(client?.apollo ?? null), [client]);
  useEffect(() => () => router.dispose(), [router]);
  return (
    <ApolloProvider client={client?.apollo ?? anonymous}>
      <RouterProvider key={`${token ?? ''}:${businessId ?? ''}:${mode ?? ''}`} router={router} />
    </ApolloProvider>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <SessionProvider>
        <App />
      </SessionProvider>
    </MantineProvider>
  </StrictMode>,
);
