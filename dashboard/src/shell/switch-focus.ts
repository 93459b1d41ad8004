import { useEffect, useRef } from 'react';

/**
 * The header switch (mode or business) a user just changed. A switch draws the whole app anew for
 * the new context (main.tsx keys the router by it), which drops the focus to the top of the page; a
 * keyboard user would have to find the switch again. The new shell gives the focus back to it.
 */
let switched: 'mode' | 'business' | null = null;

export const markSwitch = (control: 'mode' | 'business') => {
  switched = control;
};

/** Refs for the two switches; once `ready` (the shell drawn), the one just used gets the focus. */
export function useFocusAfterSwitch(ready: boolean) {
  const mode = useRef<HTMLDivElement>(null);
  const business = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!ready || !switched) return;
    const target =
      switched === 'mode' ? mode.current?.querySelector<HTMLInputElement>('input:checked') : business.current;
    switched = null;
    target?.focus();
  }, [ready]);
  return { mode, business };
}
