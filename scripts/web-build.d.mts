/** Builds the web app with Vite when dist/ is missing or older than its sources. */
export function ensureWebBuild(): void;
