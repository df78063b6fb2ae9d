/**
 * The demo: `seedDemo(db, tenants)` is the seed the commands run (demo data and demo passwords);
 * `seedDemoData(db, tenants, { today })` seeds the data alone, each tenant once, and returns the
 * demo logins (tests build their own accounts' passwords on it).
 */
export {
  bringDataInHint,
  commandEnvironment,
  isDemoTenant,
  seedDemo,
  type CommandDatabase,
  type DemoFlag,
} from './seedDemo';
export { seedDemoData, type SeedOptions } from './seedDemoData';
export {
  buildDemoData,
  SHARED_DEMO_EMAIL,
  type DemoDataSet,
  type DemoLogin,
  type DemoTenant,
} from './demoData';
export type { DemoPublication } from './catalogue';
export { demoLoginOf, demoLoginsOf, type DemoLoginSummary } from './demoLogins';
export {
  DEMO_PASSWORD,
  hasPasswordSignIn,
  setDemoPasswords,
  type PasswordSignInTenant,
} from './demoPasswords';
