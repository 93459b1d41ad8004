/** Mantine's component styles the app uses, written by vite-mantine-styles.ts. */
declare module 'virtual:mantine-styles';
