// Runs sandboxed, before the page, with context isolation: only the contract crosses.
import { contextBridge, ipcRenderer } from 'electron';
import { exposeStudioBridge } from './studio-bridge.js';

exposeStudioBridge(contextBridge, ipcRenderer);
