import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app for every non-API GET path: the file when it exists, else index.html
 * (client-side routes). Does nothing when the folder has no index.html.
 */
export async function registerWebAssets(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  if (!distDir || !existsSync(path.join(distDir, 'index.html'))) return;
  const root = path.resolve(distDir);
  await app.register(fastifyStatic, { root, serve: false });
  app.get('/*', { config: { access: 'public' } }, (request, reply) => {
    const wanted = path.resolve(root, `.${safeDecode(request.url.split('?', 1)[0])}`);
    const isFile = wanted.startsWith(`${root}${path.sep}`) && existsSync(wanted) && statSync(wanted).isFile();
    if (isFile) return reply.sendFile(path.relative(root, wanted));
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

function safeDecode(urlPath: string): string {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return '/';
  }
}
