/** Builds the web app with Vite when dist/ is missing or older than its sources. */
export function ensureWebBuild(): void;
/** The newest modification time of a file, or of a folder and everything in it. */
export const newest: (file: string) => number;
