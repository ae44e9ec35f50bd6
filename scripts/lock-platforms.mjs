// Adds lock entries for the platform-specific optional binaries this machine's npm registry does not serve.
//
// rollup and @tailwindcss/oxide ship one optional package per platform. The registry reachable here answers
// 404 for other platforms' packages, so `npm install` leaves them out of package-lock.json, and then
// `npm ci` refuses the lock as out of sync. A lock made against the full registry lists them with their
// os/cpu/libc, and npm skips them on other platforms without downloading anything. This script writes those
// entries, with os/cpu/libc read off the package name. Run it after `npm install` changes the lock.
import fs from 'node:fs';

const LOCK = 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8'));
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32', 'wasm32'];
const CPU = {
  arm: 'arm',
  'arm-eabi': 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
};

function platformOf(name) {
  const suffix = name
    .split('/')
    .pop()
    .replace(/^(rollup|oxide)-/, '');
  const [os, ...rest] = suffix.split('-');
  if (!OS.includes(os)) return null;
  if (os === 'wasm32') return { cpu: ['wasm32'] };
  const tail = rest.join('-');
  const cpu = Object.keys(CPU)
    .sort((a, b) => b.length - a.length)
    .find((c) => tail === c || tail.startsWith(`${c}-`));
  if (!cpu) return null;
  const platform = { os: [os], cpu: [CPU[cpu]] };
  if (/musl/.test(tail)) platform.libc = ['musl'];
  else if (/gnu/.test(tail) && os === 'linux') platform.libc = ['glibc'];
  return platform;
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const flat = `node_modules/${name}`;
    if (lock.packages[flat] || lock.packages[`${path}/${flat}`]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[flat] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: added ${added} platform entries to ${LOCK}`);
