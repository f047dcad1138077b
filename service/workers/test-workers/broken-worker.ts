// A pooled worker for the pool's tests whose entry fails before it is ready.
throw new Error('this worker cannot start');
