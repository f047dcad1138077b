/**
 * Imported first by main.tsx. The CSP has no 'unsafe-eval', so keep zod from
 * probing for it with Function('') (a CSP violation on every start). Some
 * shared schemas parse at module load, hence a module of its own.
 */
import { config } from 'zod';

config({ jitless: true });
