import './zod-config.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { installWebBridge } from './bridge/web-bridge.js';
import { useApp } from './store.js';
import './styles/app.css';

// In Electron the preload has set window.studio; in web mode we bring our own transport.
if (!window.studio) {
  const bridge = installWebBridge((state) => useApp.getState().setConnection(state));
  if (bridge) useApp.getState().setConnection('connecting');
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
