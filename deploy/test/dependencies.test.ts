import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// What `npm ci` installs is decided by package-lock.json alone, so the lock is checked here rather
// than the node_modules of this one machine:
// - every dependency edge resolves to a lock entry. npm records a package's per-platform optional
//   binaries only for the platform it resolved on when a lock is regenerated with node_modules
//   present (npm/cli#4828), and never adds them back; the lock then installs a gateway without
//   @node-rs/argon2's binary on arm64 or macOS, while `npm ci` here still succeeds.
// - every package runs on the oldest Node the root `engines` accepts (20.19): cookie@2 and
//   content-disposition@3 declare node >=22 and are pinned through root `overrides`.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface LockEntry {
  version?: string;
  link?: boolean;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  engines?: Record<string, string> | string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
interface Lock {
  packages: Record<string, LockEntry>;
}

/** Packages that may declare a newer Node, each with the reason it is never loaded on Node 20. */
const newerNodeAllowed: Record<string, string> = {
  '@prisma/streams-local':
    'loaded only by `prisma dev` (a local Prisma Postgres server, which we never run); every release declares node >=22',
};

/** The lock key `name` resolves to from the package at `from`, as Node's lookup walks up. */
function resolveIn(lock: Lock, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (!base) return undefined;
    const nested = base.lastIndexOf('/node_modules/');
    base = nested >= 0 ? base.slice(0, nested) : '';
  }
}

/** Dependency edges (required and optional) that the lock cannot satisfy, one line each. */
function missingFromLock(lock: Lock): string[] {
  const missing: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    // Workspaces (and the root) install their devDependencies too; installed packages do not.
    const isWorkspace = !key.startsWith('node_modules/') && !key.includes('/node_modules/');
    const edges = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...(isWorkspace ? entry.devDependencies : {}),
    };
    for (const name of Object.keys(edges)) {
      if (!resolveIn(lock, key, name)) missing.push(`${key || '(root)'} -> ${name}`);
    }
  }
  return missing;
}

/** Locked packages whose engines.node rejects `nodeVersion`, as "name@version needs range". */
function needNewerNode(lock: Lock, nodeVersion: string): string[] {
  const found: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
    if (!key || !range || semver.satisfies(nodeVersion, range)) continue;
    found.push(`${key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version} needs ${range}`);
  }
  return found;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as T;
const lock = readJson<Lock>('package-lock.json');
const rootEngines = readJson<{ engines: { node: string } }>('package.json').engines.node;
const oldestNode = semver.minVersion(rootEngines)!.version;
const nameOf = (line: string) => line.slice(0, line.lastIndexOf('@'));

describe('package-lock.json', () => {
  it('keeps engines at >=20.19 and holds every package each locked package depends on', () => {
    expect(rootEngines).toBe('>=20.19');
    expect(missingFromLock(lock)).toEqual([]);
  });

  it('holds the binary of every platform for each package that ships per-platform builds', () => {
    const platformSets = Object.entries(lock.packages).filter(([, entry]) =>
      Object.keys(entry.optionalDependencies ?? {}).some((name) => {
        const resolved = lock.packages[`node_modules/${name}`];
        return resolved?.os || resolved?.cpu;
      }),
    );
    const names = platformSets.map(([key]) => key.replace(/^.*node_modules\//, ''));
    // Those in the tree today; a new one is covered by the edge check above all the same.
    expect(names).toEqual(expect.arrayContaining(['@node-rs/argon2', 'esbuild', 'rolldown', 'lightningcss']));
    expect(Object.keys(lock.packages['node_modules/@node-rs/argon2']!.optionalDependencies!)).toHaveLength(13);
  });

  it('finds a platform binary missing from a lock', () => {
    const broken: Lock = { packages: { ...lock.packages } };
    delete broken.packages['node_modules/@node-rs/argon2-darwin-arm64'];
    expect(missingFromLock(broken)).toEqual(['node_modules/@node-rs/argon2 -> @node-rs/argon2-darwin-arm64']);
  });

  it(`has no package that needs a newer Node than ${oldestNode}, except the listed ones`, () => {
    const found = needNewerNode(lock, oldestNode);
    expect(found.filter((line) => !(nameOf(line) in newerNodeAllowed))).toEqual([]);
    // A listed package that is gone from the tree is taken off the list.
    for (const name of Object.keys(newerNodeAllowed)) expect(found.map(nameOf)).toContain(name);
  });

  it('finds a package that declares node >=22', () => {
    const cookie = lock.packages['node_modules/cookie']!;
    const broken: Lock = { packages: { ...lock.packages, 'node_modules/cookie': { ...cookie, engines: { node: '>=22' } } } };
    expect(needNewerNode(broken, oldestNode)).toContain(`cookie@${cookie.version} needs >=22`);
  });
});
