/** The e-mail widget (account-flows.md §2, §7). */
import type { FeatureManifest } from '../featureManifest';
import { createEmailWidget } from './emailWidgetService';
import { emailWidgetSlice } from './emailWidgetRoutes';
import { EMAIL_WIDGET_MAIL_JOBS } from './emailWidgetMailJobs';
import { emailWidgetPersonalData } from './personalData';

export const emailWidgetManifest: FeatureManifest = {
  id: 'email-widget',
  routers: (deps) => [
    {
      slice: emailWidgetSlice({
        db: deps.db,
        emailWidget: createEmailWidget(deps),
        now: deps.now,
        signInLimits: deps.signInLimits,
      }),
    },
  ],
  mailJobs: EMAIL_WIDGET_MAIL_JOBS,
  personalData: emailWidgetPersonalData,
  events: ['email_widget.linked'],
};
