export * from './contract.js';
export * from './batch-contract.js';
export * from './wire.js';
export * from './web-protocol.js';
export * from './content-security.js';
export * from './ipc-channels.js';
export * from './kiosk-contract.js';
export * from './photo-fields.js';
