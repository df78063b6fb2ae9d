/** "Download my data" (docs/subscribers.md "Download my data"). */
import type { FeatureManifest } from '../featureManifest';
import { createDataExport } from './dataExportService';
import { dataExportRoutes } from './dataExportRoutes';
import { dataExportPersonalData } from './personalData';

export const dataExportManifest: FeatureManifest = {
  id: 'data-export',
  // On every tenant whose subscribers sign in (engine/domain/dataExport.ts): no flag of its own.
  routers: (deps) => [{ router: dataExportRoutes({ auth: deps.auth, dataExport: createDataExport(deps) }) }],
  personalData: dataExportPersonalData,
  events: ['data_export.requested'],
};
