/** An action screen whose feature is not built yet: the feature-disabled notice (see index.ts). */
export { FeatureDisabled as default } from '../../core/FeatureDisabled';
