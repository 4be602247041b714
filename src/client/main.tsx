import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
// After Mantine's styles, which it adjusts.
import './app/focus.css';
import './app/selected-links.css';
import './app/light-variants.css';
import './app/button-labels.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.tsx';
import { AppRouter } from './app/router.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
