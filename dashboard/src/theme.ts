import { Combobox, createTheme, type CSSVariablesResolver } from '@mantine/core';

// Colours chosen for WCAG AA contrast (4.5:1 for text): the primary colour's darker shade, and darker dimmed
// text and placeholders than Mantine's default gray.6 and gray.5 (3.3:1 and 2.1:1 on white).
// Transitions end at once for users who ask their system for reduced motion.
// A Select's (or any combobox's) options are drawn when it opens, not kept mounted and hidden: Mantine's
// default mounts them and positions the hidden list (floating-ui) at the first render, ~25 ms per Select
// on a slow machine (docs/dashboard.md, Performance).
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  defaultRadius: 'md',
  respectReducedMotion: true,
  components: { Combobox: Combobox.extend({ defaultProps: { keepMounted: false } }) },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    // A field's error message (and invalid input text): red.9, 5.6:1 on white; the default red.6 is 3.3:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
