import { MantineProvider, NavLink } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { STORAGE_KEY } from '../session/session';
import { cssVariablesResolver, theme } from '../theme';
import { Loading } from '../ui/QueryState';
import { BOOT_FRAME_ID } from './boot';
import { Frame, NAVIGATION, TestModeBanner } from './Frame';

/**
 * The page's first paint, drawn by the build (vite-boot-frame.ts) into index.html before the app's
 * scripts: the signed-in frame as the Shell draws it while its first query is out (no business yet,
 * "Loading…" in the main area), with every entry of the navigation but the treasury's (which only a
 * partner's business has). Hidden as written: the page's script (boot-frame.js) shows it for a
 * stored session, in its mode (the test strip and the sandbox entry for test mode only), with its
 * email and the current entry marked; the app takes it away when it draws its own (boot.ts).
 */
function BootFrame() {
  return (
    // Inert and hidden from assistive technology: a picture of the frame, to look at, not to use (a click
    // before the app has started would do nothing, and a screen reader would read the page twice).
    <div id={BOOT_FRAME_ID} data-session-key={STORAGE_KEY} hidden inert aria-hidden>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Frame
          navOpened={false}
          mode="test"
          email=""
          navigation={NAVIGATION.filter((screen) => !screen.treasury).map((screen) => (
            <NavLink
              key={screen.path}
              component="a"
              href={`/dashboard/${screen.path}`}
              label={screen.label}
              variant="filled"
              data-boot-path={screen.path}
              data-boot-test={screen.testOnly ? '' : undefined}
            />
          ))}
          notice={
            <div data-boot-test="">
              <TestModeBanner />
            </div>
          }
        >
          <Loading />
        </Frame>
      </MantineProvider>
    </div>
  );
}

export const bootFrameMarkup = () => renderToStaticMarkup(<BootFrame />);
