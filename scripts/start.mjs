// npm start: build the web app when needed, then run the server (migrations and first-start demo data happen there).
import { spawn } from 'node:child_process';
import { ensureWebBuild } from './web-build.mjs';

ensureWebBuild();
const server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
