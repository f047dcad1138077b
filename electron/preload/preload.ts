// Runs sandboxed, before the page, with context isolation: only the contract crosses.
import { contextBridge, ipcRenderer } from 'electron';
import { exposeStudioBridge } from './expose-studio.js';

exposeStudioBridge(contextBridge, ipcRenderer);
