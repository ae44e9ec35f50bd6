// The worker thread of prepare-call.ts: TypeScript through tsx, as the server runs.
import { register } from 'tsx/esm/api';

register();
await import('./prepare-worker.ts');
