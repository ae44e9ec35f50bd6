/** The built server's entry (build/server/index.mjs). */
export const SERVER_BUNDLE: string;
/** How to start the built server: `node ...SERVER_COMMAND`, with the server's environment. */
export const SERVER_COMMAND: string[];
/** Builds the server's bundles when any is missing or older than its sources. */
export function ensureServerBuild(): Promise<void>;
