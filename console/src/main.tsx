import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { ddpTransport, socketOrigin } from './live/ddp.js';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App transport={(creds) => ddpTransport({ url: socketOrigin(window.location), userId: creds.userId, authToken: creds.authToken })} />
    </StrictMode>,
  );
}
