import '../zod-config.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { credentialsFromLocation } from './session-api.js';
import { SessionApp } from './SessionApp.js';
import '../styles/app.css';
import './session.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const credentials = credentialsFromLocation(window);
createRoot(root).render(
  <StrictMode>
    {credentials ? (
      <SessionApp credentials={credentials} />
    ) : (
      <p className="session-message" role="alert">
        This session link is not complete. Ask the application for a new one.
      </p>
    )}
  </StrictMode>,
);
