/** Style sheets imported for their effect: scripts/build-explorer.js bundles them into the explorer's CSS. */
declare module '*.css';
