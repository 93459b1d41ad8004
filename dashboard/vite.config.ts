import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bootFrame } from './vite-boot-frame.ts';
import { inlineDocuments } from './vite-inline-documents.ts';
import { mantineStyles } from './vite-mantine-styles.ts';
import { routePreloads } from './vite-route-preloads.ts';

/**
 * The dashboard's build (`npm run build` at the root, through scripts/build-dashboard.js) writes
 * ../dist/dashboard/, which the server serves at /dashboard. `npm run dev -w dashboard` serves it
 * with hot reload on http://localhost:5173/dashboard/, sending the API's paths to a running server
 * (TESSERA_URL, default http://localhost:4000).
 */
const api = process.env.TESSERA_URL ?? 'http://localhost:4000';

/**
 * What every screen needs at its first load, split by library so that a release of the app's own
 * code leaves the libraries' files in the browser's cache: modules of the first load only (`$initial`;
 * what only some screens use, such as the date pickers and charts, stays with those screens' chunks).
 */
const firstLoadLibraries = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'apollo', test: /[\\/]node_modules[\\/](@apollo|graphql|graphql-ws|rxjs|@wry|optimism|tslib)[\\/]/ },
  { name: 'mantine', test: /[\\/]node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|clsx)/ },
].map((group) => ({ ...group, tags: ['$initial' as const] }));

export default defineConfig({
  base: '/dashboard/',
  plugins: [inlineDocuments(), mantineStyles(), react(), routePreloads(), bootFrame()],
  build: {
    outDir: '../dist/dashboard',
    emptyOutDir: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 900,
    rolldownOptions: { output: { codeSplitting: { groups: firstLoadLibraries } } },
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: api, ws: true, changeOrigin: true },
    },
  },
});
