import { useLayoutEffect } from 'react';

/** The id of the frame the page is first painted with (BootFrame.tsx, vite-boot-frame.ts). */
export const BOOT_FRAME_ID = 'boot-frame';

/**
 * Takes the page's first-paint frame away as the app draws its own, before the browser paints again
 * (a layout effect): the one replaces the other in place. Called by the first component of every
 * signed-in route (router.tsx), whatever it draws: the frame, or the way to the sign-in screen.
 */
export function useBootFrameRemoved() {
  useLayoutEffect(() => {
    document.getElementById(BOOT_FRAME_ID)?.remove();
  }, []);
}
