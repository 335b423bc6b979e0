import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { ddpTransport, websocketUrl } from './live/ddp.js';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App transport={(creds) => ddpTransport({ url: websocketUrl(window.location), userId: creds.userId, authToken: creds.authToken })} />
    </StrictMode>,
  );
}
