// Builds the admin web app into admin/ui/dist (placeholder until the admin app lands).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist');
await fs.mkdir(dist, { recursive: true });
await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>vault-service admin</title><p>The admin app is not built yet.</p>\n');
