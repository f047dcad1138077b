/**
 * The packaged app's entry (bundled to dist/app/main.cjs). A second launch
 * must exit before it starts anything (no back end, no service, no window):
 * it only hands its focus request to the first instance. Everything else is
 * loaded after the lock is ours.
 */
import { app } from 'electron';

if (!app.requestSingleInstanceLock()) app.exit(0);
else void import('./main.js').then(({ startShell }) => startShell());
