import fs from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin } from 'vite';

/** The module that draws the frame, and the script that shows it (paths under dashboard/). */
const FRAME_MODULE = '/src/shell/BootFrame.tsx';
const FRAME_SCRIPT = 'src/shell/boot-frame.js';
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Writes the signed-in frame into the built index.html, before the app's root, with the script that
 * shows it (docs/dashboard.md, Performance: the first paint): the browser paints the frame as soon
 * as the page and its style sheets are in, instead of a blank page until the app's ~750 kB of script
 * has been fetched, compiled and run. The frame is the Shell's own layout (shell/Frame.tsx) rendered
 * with React's server renderer, so the app's frame replaces it in place. Only in the build: `vite dev`
 * serves the page without it. The server allows the inline script by its hash (src/server/dashboard.ts).
 */
export function bootFrame(): Plugin {
  let root = '';
  return {
    name: 'tessera-boot-frame',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!html.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to put the frame before`);
        const markup = await renderFrame(root);
        // The script as written, less its own comment lines (it is documented where it is written).
        const script = fs
          .readFileSync(path.join(root, FRAME_SCRIPT), 'utf8')
          .replace(/^(\/\/.*|\/\* global .*\*\/)\n/gm, '')
          .trim();
        return html.replace(ROOT_ELEMENT, `${markup}\n    <script>\n${script}\n    </script>\n    ${ROOT_ELEMENT}`);
      },
    },
  };
}

/** The frame's markup, from the app's own modules loaded by a Vite server of their own (no files written). */
async function renderFrame(root: string): Promise<string> {
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const { bootFrameMarkup } = (await server.ssrLoadModule(FRAME_MODULE)) as { bootFrameMarkup: () => string };
    return bootFrameMarkup();
  } finally {
    await server.close();
  }
}
