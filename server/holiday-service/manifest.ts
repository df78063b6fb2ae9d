/** Holiday service (account-flows.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { createHolidayService } from './holidayService';
import { holidayServiceRoutes } from './holidayServiceRoutes';
import { holidayServicePersonalData } from './personalData';
import {
  dropRejectedHolidayService,
  restoreRejectedHolidayCancellation,
} from '../store/changeRejectionStore';

export const holidayServiceManifest: FeatureManifest = {
  id: 'holiday-service',
  routers: (deps) => [
    { router: holidayServiceRoutes({ auth: deps.auth, holiday: createHolidayService(deps) }) },
  ],
  personalData: holidayServicePersonalData,
  events: ['holiday_service.set', 'holiday_service.cancelled'],
  rejections: {
    'holiday_service.set': dropRejectedHolidayService,
    'holiday_service.cancelled': restoreRejectedHolidayCancellation,
  },
};
