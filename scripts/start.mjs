// npm start: build the web app and the server when needed, then run the server (migrations and first-start demo data
// happen there).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { ensureServerBuild, SERVER_COMMAND } from './server-build.mjs';
import { ensureWebBuild } from './web-build.mjs';

/*
 * Stopping: supervisors signal the process they started, which is `npm`, or a shell running `npm start`. npm passes
 * the signal to the `sh -c` it runs this script in, and that shell dies without passing it on; a shell killed above
 * npm tells nobody. So besides passing on the signals it gets, this script watches the processes that started it, up
 * to the leader of its process group (the job a shell or supervisor started), and stops the server when one of them
 * is gone. A `nohup npm start &` from a terminal is a job of its own, so closing the terminal does not stop it.
 */
const WATCH_MS = 500;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

ensureWebBuild();
await ensureServerBuild();
// The IPC channel tells the server when this process is gone, even by SIGKILL (server/index.ts stops then).
const server = spawn(process.execPath, SERVER_COMMAND, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  server.kill(signal);
};
for (const signal of SIGNALS) process.on(signal, () => stop(signal === 'SIGHUP' ? 'SIGTERM' : signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

const watched = lineage();
const firstParent = process.ppid;
setInterval(() => {
  if (process.ppid !== firstParent || watched.some((pid) => !alive(pid))) stop('SIGTERM');
}, WATCH_MS).unref();

/** The processes above this one, up to its process group's leader (Linux's /proc; elsewhere the parent alone). */
function lineage() {
  const chain = [];
  try {
    const group = stat(process.pid).pgrp;
    for (let pid = process.ppid; pid > 1 && chain.length < 32 && group !== process.pid; pid = stat(pid).ppid) {
      chain.push(pid);
      if (pid === group) break;
    }
  } catch {
    return [process.ppid];
  }
  return chain;
}

/** ppid and pgrp from /proc/<pid>/stat; the name in parentheses may hold spaces, so fields are read after its end. */
function stat(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [, ppid, pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(ppid), pgrp: Number(pgrp) };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
