export * from './contract.js';
export * from './wire.js';
export * from './web-protocol.js';
