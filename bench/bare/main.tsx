import { createRoot } from 'react-dom/client';

// The baseline of `npm run bench`: the smallest React page, built like the engine.
createRoot(document.getElementById('root')!).render(<h1>Hello</h1>);
