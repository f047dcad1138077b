export * from './contract.js';
export * from './batch-contract.js';
export * from './wire.js';
export * from './web-protocol.js';
export * from './content-security.js';
export * from './ipc-channels.js';
