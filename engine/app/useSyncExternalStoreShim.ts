/**
 * What `use-sync-external-store/shim` resolves to in the engine build (cli/build/engineBuild.ts):
 * react-i18next imports the shim for React 16 and 17; React 19 has the hook itself, so the shim's
 * copy would only add bytes to every page.
 */
export { useSyncExternalStore } from 'react';
