import { buildOpenApiDocument } from './document.js';

process.stdout.write(JSON.stringify(buildOpenApiDocument(), null, 2) + '\n');
