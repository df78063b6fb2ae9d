/**
 * The mail queue and its sender. The sender stays in server/main.ts with the other platform jobs:
 * it sends every feature's mail, with the resolvers the manifests declare.
 */
import type { FeatureManifest } from '../featureManifest';
import { mailPersonalData } from './personalData';

export const mailManifest: FeatureManifest = {
  id: 'mail',
  personalData: mailPersonalData,
};
