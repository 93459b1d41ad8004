// Mantine's styles of the components the app uses (vite-mantine-styles.ts); the date pickers' and the
// charts' own sheets come with the screens that draw them.
import 'virtual:mantine-styles';
import '@mantine/notifications/styles.css';
import './app.css';
import { ApolloProvider } from '@apollo/client/react';
import { Combobox, MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode, useEffect, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAnonymousClient, createDashboardClient } from './api/client';
import { createDashboardRouter } from './router';
import { SessionProvider, useSession } from './session/session';

// Colours chosen for WCAG AA contrast (4.5:1 for text): the primary colour's darker shade, and darker dimmed
// text and placeholders than Mantine's default gray.6 and gray.5 (3.3:1 and 2.1:1 on white).
// Transitions end at once for users who ask their system for reduced motion.
// A Select's (or any combobox's) options are drawn when it opens, not kept mounted and hidden: Mantine's
// default mounts them and positions the hidden list (floating-ui) at the first render, ~25 ms per Select
// on a slow machine (docs/dashboard.md, Performance).
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  defaultRadius: 'md',
  respectReducedMotion: true,
  components: { Combobox: Combobox.extend({ defaultProps: { keepMounted: false } }) },
});
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    // A field's error message (and invalid input text): red.9, 5.6:1 on white; the default red.6 is 3.3:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
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
