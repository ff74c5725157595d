import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { serviceNames } from '@bo/proto';
import { isMainModule, repoRoot, serviceFolder, serviceMain } from './service-paths';

/**
 * What a process of the distributed topology runs (its container, `make start-distributed`, the
 * scraper's bench): its main and all of our code it imports (platform, proto, its Prisma client)
 * bundled into one ES module, <folder>/dist/main.mjs; packages from npm stay imports of
 * node_modules. Under `node --import tsx` every module went through tsx's loader, which runs in a
 * thread of its own with a second V8 heap, and every stack trace through source maps: a scraper
 * worker reading pages held 430 MB that way against 240 MB bundled (bench/scraper.ts).
 */
export const serviceBundle = (service: string): string => path.join(serviceFolder(service), 'dist/main.mjs');

/** `node`'s arguments for a process run alone: its options (the definition's `nodeOptions`) and its bundle. */
export const serviceNodeArgs = (definition: { name: string; nodeOptions?: readonly string[] }): string[] => [...(definition.nodeOptions ?? []), serviceBundle(definition.name)];

/**
 * `import.meta.url` in our sources names the file it is written in (migrations are found beside
 * it): in the bundle it is rewritten to that file's place, relative to the bundle, so the bundle
 * finds them wherever the repository is.
 */
const sourceUrls = (outDir: string): Plugin => ({
  name: 'source-import-meta-url',
  setup(bundler) {
    bundler.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async ({ path: file }) => {
      if (file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(file, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = path.relative(outDir, file).split(path.sep).join('/');
      const loader = /\.[cm]?tsx?$/.test(file) ? (file.endsWith('x') ? 'tsx' : 'ts') : file.endsWith('x') ? 'jsx' : 'js';
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader };
    });
  },
});

/** Bare imports of npm packages stay imports; our workspaces (@bo/…) are bundled. */
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) => (specifier.startsWith('@bo/') || specifier.startsWith('node:') ? undefined : { path: specifier, external: true }));
  },
};

/**
 * Bundles one process's main into serviceBundle(service); returns the bundle's path. The file is
 * replaced whole (written aside, then renamed), so a process starting from it meanwhile (another
 * suite's) reads the old bundle or the new, never half of one.
 */
export async function bundleService(service: string): Promise<string> {
  const { outfile, contents } = await buildBundle(service);
  const aside = `${outfile}.${process.pid}.${randomUUID()}`;
  await mkdir(path.dirname(outfile), { recursive: true });
  await writeFile(aside, contents);
  await rename(aside, outfile);
  return outfile;
}

/** The npm packages a process's bundle imports (each must be installed where it runs: the image installs production dependencies only). */
export async function bundleImports(service: string): Promise<string[]> {
  const { imports } = await buildBundle(service);
  return imports;
}

async function buildBundle(service: string): Promise<{ outfile: string; contents: Uint8Array; imports: string[] }> {
  const outfile = serviceBundle(service);
  const { outputFiles, metafile } = await build({
    entryPoints: [serviceMain(service)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // CommonJS code of ours that calls require() (none should) still works in the ES module.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    plugins: [npmPackagesExternal, sourceUrls(path.dirname(outfile))],
    write: false,
    metafile: true,
  });
  const external = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((imported) => imported.external).map((imported) => imported.path));
  // A package's name: its first part, or its first two for a scoped one.
  const packages = external.filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier.split('/')[0])).map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
  return { outfile, contents: outputFiles[0].contents, imports: [...new Set(packages)].sort() };
}

/** Bundles the processes named, or every process of the registry. */
export async function bundleServices(names: readonly string[] = serviceNames): Promise<string[]> {
  return Promise.all(names.map((name) => bundleService(name)));
}

if (isMainModule(import.meta.url)) {
  const bundles = await bundleServices(process.argv.length > 2 ? process.argv.slice(2) : serviceNames);
  for (const bundle of bundles) console.log(`bundled ${path.relative(repoRoot, bundle)}`);
}
