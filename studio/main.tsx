import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StudioApp } from './StudioApp';
import { InsightsPage } from './InsightsPage';
import './studio.css';

// The studio's own entry (operator code): built into <dist>/.studio, never into a tenant's portal.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* ?view=insights: the retention insights; otherwise the editor. */}
    {new URLSearchParams(window.location.search).get('view') === 'insights' ? (
      <InsightsPage />
    ) : (
      <StudioApp />
    )}
  </StrictMode>,
);
