import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languages, shellBundles, textBundles, type TextBundle } from './bundles';
import { en } from './catalogue';

const src = resolve(import.meta.dirname, '..');
const bundleNames = Object.keys(textBundles) as TextBundle[];
const keysOf = async (bundle: TextBundle, language: (typeof languages)[number]) => Object.keys(await textBundles[bundle][language]()).sort();

describe('the catalogue in parts', () => {
  it('holds every key of the catalogue exactly once, each part the same keys in both languages', async () => {
    const seen: string[] = [];
    for (const bundle of bundleNames) {
      const english = await keysOf(bundle, 'en');
      expect(english.length).toBeGreaterThan(0);
      for (const language of languages) expect(await keysOf(bundle, language), `${bundle} in ${language}`).toEqual(english);
      seen.push(...english);
    }
    expect(seen.sort()).toEqual(Object.keys(en).sort());
  });
});

/** A key's first segment ('qpay' of 'qpay.settings.title') names the part that holds it: one part per segment. */
async function partOfSegment(): Promise<Map<string, TextBundle>> {
  const parts = new Map<string, TextBundle>();
  for (const bundle of bundleNames) {
    for (const key of await keysOf(bundle, 'en')) {
      const segment = key.split('.')[0];
      expect(parts.get(segment) ?? bundle, `'${segment}.' keys are in more than one part`).toBe(bundle);
      parts.set(segment, bundle);
    }
  }
  return parts;
}

const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });

/** The file a relative specifier names (`./x` → `./x.ts`, `./x.tsx` or `./x/index.ts`). */
function resolveModule(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((path) => statSync(path, { throwIfNoEntry: false })?.isFile());
  if (!found) throw new Error(`${relative(src, from)}: cannot resolve ${specifier}`);
  return found;
}

/** The files a module's code runs: its static imports that are not type-only, followed inside web/src (dynamic imports are chunks of their own). */
function closure(entry: string): Set<string> {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']+)'/gm)) {
      if (!match[1]) visit(resolveModule(file, match[2]));
    }
  };
  visit(entry);
  return files;
}

/** The parts of the catalogue a file's code asks for: string and template literals starting with a key's first segment and a dot. */
function partsUsedBy(file: string, parts: Map<string, TextBundle>): Set<TextBundle> {
  const used = new Set<TextBundle>();
  const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, ''); // not the comments
  for (const match of code.matchAll(/['"`]([a-z][a-zA-Z]*)\.[a-zA-Z${]/g)) {
    const part = parts.get(match[1]);
    if (part) used.add(part);
  }
  return used;
}

interface LazyCall { file: string; target: string; bundles: TextBundle[] }

/** Every `lazyPage(() => import('…'), 'part', …)` in a file. */
function lazyCallsIn(file: string): LazyCall[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/lazyPage\(\s*\(\)\s*=>\s*import\('([^']+)'\)((?:\s*,\s*'[^']+')*)\s*\)/g)].map((match) => ({
    file,
    target: resolveModule(file, match[1]),
    bundles: [...match[2].matchAll(/'([^']+)'/g)].map((name) => name[1] as TextBundle),
  }));
}

describe('each screen fetches the texts its code uses', () => {
  it('lazy pages are made with lazyPage (React.lazy alone would not fetch their texts)', () => {
    const plainLazy = sourceFiles(src).filter((file) => !file.endsWith('lazy-page.tsx') && /\blazy\(/.test(readFileSync(file, 'utf8')));
    expect(plainLazy.map((file) => relative(src, file))).toEqual([]);
  });

  it('the first load uses only the shell parts, and each lazy page names every further part its code uses, and no other', async () => {
    const parts = await partOfSegment();
    const problems: string[] = [];
    const checked = new Set<string>();
    // From the entry down: a lazy page may use what its own call names plus whatever the chunk that loads it has.
    const check = (entry: string, loaded: Set<TextBundle>, named: TextBundle[]) => {
      const visit = `${entry} with ${[...loaded].sort().join()}`;
      if (checked.has(visit)) return;
      checked.add(visit);
      const files = closure(entry);
      const used = new Set([...files].flatMap((file) => [...partsUsedBy(file, parts)]));
      const missing = [...used].filter((part) => !loaded.has(part));
      const unused = named.filter((part) => !used.has(part));
      if (missing.length) problems.push(`${relative(src, entry)} uses ${missing.join(', ')} without fetching it`);
      if (unused.length) problems.push(`${relative(src, entry)} fetches ${unused.join(', ')} without using it`);
      for (const call of [...files].flatMap(lazyCallsIn)) {
        check(call.target, new Set([...loaded, ...call.bundles]), call.bundles);
      }
    };
    check(join(src, 'main.tsx'), new Set(shellBundles), []);
    expect(problems).toEqual([]);
    expect(checked.size).toBeGreaterThan(15); // the entry, every page and the dashboard's sections
  });
});
